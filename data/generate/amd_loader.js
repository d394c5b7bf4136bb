'use strict';
// A tiny AMD loader (define/require) for running the articles' modules in Node.
//
// The article modules are written for require.js in a browser: each file is a
// plain (sloppy-mode) script that calls `define(deps, factory)`. We run each
// file, unmodified, with Node's `vm` module in one shared context, so they
// behave as browser scripts would (e.g. an undeclared assignment such as
// `out_x = ...` in the articles' lerp() creates a global instead of throwing).
//
// Module ids are './name'. Names listed in `ownModules` (math, gjk_epa: the
// modules the articles do not contain and we write ourselves) resolve to
// `ownDir`; every other name resolves to `articleDir`, the folder holding the
// article code. Article code is never copied: it is read from `articleDir`.
//
// Only what the articles use is supported: relative ids, dependency arrays,
// `define(factory)` without dependencies, synchronous loading.

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const DEFAULT_OWN_MODULES = ['math', 'gjk_epa'];

class AmdLoader {
  /**
   * @param {object} opts
   * @param {string} opts.articleDir  folder with the article modules (read only)
   * @param {string} opts.ownDir      folder with our own modules (math.js, gjk_epa.js)
   * @param {string[]} [opts.ownModules] module names resolved to ownDir
   * @param {object} [opts.preloaded] map './name' -> module value, bypassing files
   *                                  (lets tests substitute a variant module)
   * @param {object} [opts.console]   console given to the modules (article code logs a lot)
   */
  constructor(opts) {
    if (!opts || !opts.articleDir || !opts.ownDir) {
      throw new Error('AmdLoader: articleDir and ownDir are required');
    }
    this.articleDir = path.resolve(opts.articleDir);
    this.ownDir = path.resolve(opts.ownDir);
    this.ownModules = new Set(opts.ownModules || DEFAULT_OWN_MODULES);
    this.modules = new Map();   // id -> exported value
    this.loading = new Set();   // ids being loaded (cycle detection)
    this.files = new Map();     // id -> absolute path of the file that was run
    this.pendingDefine = null;  // set by define() while a module file runs
    for (const [id, value] of Object.entries(opts.preloaded || {})) {
      this.modules.set(this.normalizeId(id), value);
    }

    const loader = this;
    const define = function define(deps, factory) {
      if (typeof deps === 'function') { factory = deps; deps = []; }
      if (!Array.isArray(deps) || typeof factory !== 'function') {
        throw new Error('AMD define: expected define([deps], factory) or define(factory)');
      }
      if (loader.pendingDefine) throw new Error('AMD define: more than one define() in a module file');
      loader.pendingDefine = { deps, factory };
    };
    define.amd = {};
    const require = function require(deps, callback) {
      if (typeof deps === 'string') return loader.load(deps);
      const values = deps.map((d) => loader.load(d));
      if (callback) return callback(...values);
      return values;
    };

    // Math is the host realm's Math, so numbers computed by article code come
    // from exactly the same V8 libm entry points as numbers computed by our script.
    this.context = vm.createContext({
      define,
      require,
      Math,
      console: opts.console || console,
    });
  }

  normalizeId(id) {
    const m = /^\.\/([A-Za-z0-9_\-]+)(\.js)?$/.exec(id);
    if (!m) throw new Error(`AMD loader: unsupported module id '${id}' (only './name' is supported)`);
    return './' + m[1];
  }

  resolve(id) {
    const name = id.slice(2);
    const dir = this.ownModules.has(name) ? this.ownDir : this.articleDir;
    return path.join(dir, name + '.js');
  }

  /** Loads (once) and returns the value of module `id`. */
  load(id, requiredBy) {
    id = this.normalizeId(id);
    if (this.modules.has(id)) return this.modules.get(id);
    if (this.loading.has(id)) {
      throw new Error(`AMD loader: circular dependency involving '${id}'`);
    }
    const file = this.resolve(id);
    if (!fs.existsSync(file)) {
      const own = this.ownModules.has(id.slice(2));
      throw new Error(
        `AMD loader: module '${id}'${requiredBy ? ` (required by '${requiredBy}')` : ''} not found: ` +
        `expected ${file}. ` +
        (own
          ? `'${id.slice(2)}.js' is not in the articles; it is one of our own modules and has not been written yet.`
          : 'It should be an article file in the articles directory.'));
    }
    this.loading.add(id);
    try {
      const source = fs.readFileSync(file, 'utf8');
      this.pendingDefine = null;
      vm.runInContext(source, this.context, { filename: file });
      const def = this.pendingDefine;
      this.pendingDefine = null;
      if (!def) throw new Error(`AMD loader: ${file} did not call define()`);
      const values = def.deps.map((d) => this.load(d, id));
      const value = def.factory(...values);
      this.modules.set(id, value);
      this.files.set(id, file);
      return value;
    } finally {
      this.loading.delete(id);
    }
  }
}

module.exports = { AmdLoader, DEFAULT_OWN_MODULES };
