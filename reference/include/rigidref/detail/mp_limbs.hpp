// Signed integers of at most K 64-bit limbs, in place, for the mp roots'
// candidate and exact test (detail/mp_sqrt.hpp, D-EPA-22): the operations
// those steps use (add, subtract, multiply, shift, compare; no division),
// each touching only the limbs in use, and the limbs readable, so that a
// proved root is written into T directly (mp_from_significand). Measured
// with that write, a mp50 root went from 900 to 614 ns; a product alone
// costs about what Boost's fixed-width cpp_int's does. Every result must fit in
// K limbs: the callers check each shift and product against their room
// (fewer bits than 64 K), and an operation that would not fit throws
// std::logic_error instead of writing past the limbs.
#pragma once

#include "rigidref/scalar.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

template <unsigned K>
class mp_limb_int {
 public:
  using limb = std::uint64_t;
  __extension__ typedef unsigned __int128 wide;  // GCC and clang; __extension__: no -Wpedantic warning

  mp_limb_int() = default;
  mp_limb_int(std::uint64_t v) { set_u64(v); }  // NOLINT: implicit like an integer
  mp_limb_int(std::int64_t v) {                 // NOLINT
    set_u64(v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v));
    neg_ = v < 0;
  }
  mp_limb_int(int v) : mp_limb_int(static_cast<std::int64_t>(v)) {}  // NOLINT
  mp_limb_int(long long v) : mp_limb_int(static_cast<std::int64_t>(v)) {}  // NOLINT
  // The value of a Boost integer (big_int or a fixed cpp_int) of at most K limbs.
  template <class B>
  explicit mp_limb_int(const bmp::number<B, bmp::et_off>& x) {
    const unsigned size = x.backend().size();
    const auto* l = x.backend().limbs();
    static_assert(sizeof(*l) == sizeof(limb));
    if (size > K) throw std::logic_error("mp_limb_int: more limbs than its width");
    for (unsigned i = 0; i < size; ++i) w_[i] = static_cast<limb>(l[i]);
    n_ = size;
    trim();
    neg_ = n_ != 0 && x.sign() < 0;
  }

  // The value of an integer of another width (of at most K limbs).
  template <unsigned K2>
  explicit mp_limb_int(const mp_limb_int<K2>& x) {
    if (x == mp_limb_int<K2>()) return;
    const unsigned size = x.top_bit() / 64 + 1;
    if (size > K) throw std::logic_error("mp_limb_int: more limbs than its width");
    for (unsigned i = 0; i < size; ++i) w_[i] = x.limb_at(i);
    n_ = size;
    neg_ = x.negative();
  }

  // The value as a big_int.
  explicit operator big_int() const {
    big_int r = 0;
    for (unsigned i = n_; i-- > 0;) {
      r <<= 64;
      r += w_[i];
    }
    return neg_ ? big_int(-r) : r;
  }
  // The low 64 bits of the magnitude (the callers convert values below 2^64).
  explicit operator std::uint64_t() const { return n_ == 0 ? 0 : w_[0]; }

  limb limb_at(unsigned i) const { return i < n_ ? w_[i] : 0; }
  bool negative() const { return neg_; }

  // Index of the highest set bit of the magnitude (nonzero).
  unsigned top_bit() const {
    if (n_ == 0) throw std::logic_error("mp_limb_int: msb of zero");
    return 64 * (n_ - 1) + 63 - static_cast<unsigned>(std::countl_zero(w_[n_ - 1]));
  }
  bool test_bit(unsigned i) const {
    const unsigned q = i / 64;
    return q < n_ && ((w_[q] >> (i % 64)) & 1) != 0;
  }

  mp_limb_int operator-() const {
    mp_limb_int r = *this;
    r.neg_ = r.n_ != 0 && !neg_;
    return r;
  }

  mp_limb_int& operator<<=(long bits) {
    if (bits < 0) return *this >>= -bits;
    if (n_ == 0 || bits == 0) return *this;
    if (bits >= 64L * K) throw std::logic_error("mp_limb_int: shift beyond its width");
    const unsigned q = static_cast<unsigned>(bits / 64), r = static_cast<unsigned>(bits % 64);
    const limb spill = r != 0 ? w_[n_ - 1] >> (64 - r) : 0;  // the bits pushed into a new limb
    const unsigned n = n_ + q + (spill != 0 ? 1 : 0);
    if (n > K) throw std::logic_error("mp_limb_int: shift beyond its width");
    if (r == 0) {
      for (unsigned i = n_; i-- > 0;) w_[i + q] = w_[i];
    } else {
      if (spill != 0) w_[n_ + q] = spill;
      for (unsigned i = n_ - 1; i > 0; --i) w_[i + q] = (w_[i] << r) | (w_[i - 1] >> (64 - r));
      w_[q] = w_[0] << r;
    }
    n_ = n;
    std::fill(w_.begin(), w_.begin() + q, limb(0));
    return *this;
  }
  // Magnitude shifted right (toward zero, as Boost's signed-magnitude shift).
  mp_limb_int& operator>>=(long bits) {
    if (bits < 0) return *this <<= -bits;
    const unsigned long q = static_cast<unsigned long>(bits / 64);
    const unsigned r = static_cast<unsigned>(bits % 64);
    if (q >= n_) {
      n_ = 0;
      neg_ = false;
      return *this;
    }
    const unsigned m = n_ - static_cast<unsigned>(q);
    if (r == 0) {
      for (unsigned i = 0; i < m; ++i) w_[i] = w_[i + q];
    } else {
      for (unsigned i = 0; i + 1 < m; ++i) w_[i] = (w_[i + q] >> r) | (w_[i + q + 1] << (64 - r));
      w_[m - 1] = w_[m - 1 + q] >> r;
    }
    n_ = m;
    trim();
    if (n_ == 0) neg_ = false;
    return *this;
  }
  friend mp_limb_int operator<<(mp_limb_int a, long bits) { return a <<= bits; }
  friend mp_limb_int operator>>(mp_limb_int a, long bits) { return a >>= bits; }

  friend mp_limb_int operator+(const mp_limb_int& a, const mp_limb_int& b) {
    if (a.neg_ == b.neg_) {
      mp_limb_int r = add_magnitudes(a, b);
      r.neg_ = r.n_ != 0 && a.neg_;
      return r;
    }
    // Opposite signs: the larger magnitude less the smaller, its sign.
    const int c = compare_magnitudes(a, b);
    if (c == 0) return mp_limb_int();
    mp_limb_int r = c > 0 ? subtract_magnitudes(a, b) : subtract_magnitudes(b, a);
    r.neg_ = r.n_ != 0 && (c > 0 ? a.neg_ : b.neg_);
    return r;
  }
  friend mp_limb_int operator-(const mp_limb_int& a, const mp_limb_int& b) { return a + (-b); }
  friend mp_limb_int operator*(const mp_limb_int& a, const mp_limb_int& b) {
    mp_limb_int r;
    if (a.n_ == 0 || b.n_ == 0) return r;
    const unsigned m = a.n_ + b.n_;  // the product has m or m - 1 limbs
    if (m > K + 1 || (m == K + 1 && top_product_limb(a, b) != 0))
      throw std::logic_error("mp_limb_int: product beyond its width");
    // Rows of a_i b, accumulated into r's limbs; the last row's top carry
    // lands in limb m - 1, which exists unless m = K + 1 (then it is zero).
    std::fill(r.w_.begin(), r.w_.begin() + std::min(m, K), limb(0));
    for (unsigned i = 0; i < a.n_; ++i) {
      limb carry = 0;
      for (unsigned j = 0; j < b.n_; ++j) {
        const wide p = static_cast<wide>(a.w_[i]) * b.w_[j] + r.w_[i + j] + carry;
        r.w_[i + j] = static_cast<limb>(p);
        carry = static_cast<limb>(p >> 64);
      }
      if (i + b.n_ < K) r.w_[i + b.n_] = carry;
    }
    r.n_ = std::min(m, K);
    r.trim();
    r.neg_ = r.n_ != 0 && a.neg_ != b.neg_;
    return r;
  }
  mp_limb_int& operator+=(const mp_limb_int& b) { return *this = *this + b; }
  mp_limb_int& operator-=(const mp_limb_int& b) { return *this = *this - b; }
  mp_limb_int& operator++() { return *this = *this + mp_limb_int(1); }
  // The magnitude's low bits under a mask (the callers mask nonnegative values).
  friend mp_limb_int operator&(const mp_limb_int& a, std::uint64_t mask) {
    return mp_limb_int(a.n_ == 0 ? std::uint64_t(0) : (a.w_[0] & mask));
  }

  friend int compare(const mp_limb_int& a, const mp_limb_int& b) {
    if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
    const int c = compare_magnitudes(a, b);
    return a.neg_ ? -c : c;
  }
  friend bool operator==(const mp_limb_int& a, const mp_limb_int& b) { return compare(a, b) == 0; }
  friend bool operator<(const mp_limb_int& a, const mp_limb_int& b) { return compare(a, b) < 0; }
  friend bool operator<=(const mp_limb_int& a, const mp_limb_int& b) { return compare(a, b) <= 0; }
  friend bool operator>(const mp_limb_int& a, const mp_limb_int& b) { return compare(a, b) > 0; }
  friend bool operator>=(const mp_limb_int& a, const mp_limb_int& b) { return compare(a, b) >= 0; }

 private:
  // The magnitude, least significant limb first; only w_[0..n_) is ever
  // read, so the rest is left uninitialised (no 8 K bytes to clear for each
  // temporary).
  std::array<limb, K> w_;
  unsigned n_ = 0;         // limbs in use: w_[n_ - 1] != 0, or n_ == 0 for zero
  bool neg_ = false;       // never true for zero

  void set_u64(std::uint64_t v) {
    w_[0] = v;
    n_ = v != 0 ? 1 : 0;
    neg_ = false;
  }
  void trim() {
    while (n_ > 0 && w_[n_ - 1] == 0) --n_;
  }
  // The limb m - 1 of the product (m = a's limbs + b's), computed in a
  // buffer of m limbs: only for the rare product of K + 1 limbs.
  static limb top_product_limb(const mp_limb_int& a, const mp_limb_int& b) {
    std::array<limb, K + 1> t{};
    for (unsigned i = 0; i < a.n_; ++i) {
      limb carry = 0;
      for (unsigned j = 0; j < b.n_; ++j) {
        const wide p = static_cast<wide>(a.w_[i]) * b.w_[j] + t[i + j] + carry;
        t[i + j] = static_cast<limb>(p);
        carry = static_cast<limb>(p >> 64);
      }
      t[i + b.n_] = carry;
    }
    return t[a.n_ + b.n_ - 1];
  }
  static int compare_magnitudes(const mp_limb_int& a, const mp_limb_int& b) {
    if (a.n_ != b.n_) return a.n_ < b.n_ ? -1 : 1;
    for (unsigned i = a.n_; i-- > 0;)
      if (a.w_[i] != b.w_[i]) return a.w_[i] < b.w_[i] ? -1 : 1;
    return 0;
  }
  static mp_limb_int add_magnitudes(const mp_limb_int& a, const mp_limb_int& b) {
    const mp_limb_int& big = a.n_ >= b.n_ ? a : b;
    const mp_limb_int& small = a.n_ >= b.n_ ? b : a;
    mp_limb_int r;
    limb carry = 0;
    for (unsigned i = 0; i < big.n_; ++i) {
      const wide s = static_cast<wide>(big.w_[i]) + (i < small.n_ ? small.w_[i] : 0) + carry;
      r.w_[i] = static_cast<limb>(s);
      carry = static_cast<limb>(s >> 64);
    }
    r.n_ = big.n_;
    if (carry != 0) {
      if (r.n_ == K) throw std::logic_error("mp_limb_int: sum beyond its width");
      r.w_[r.n_++] = carry;
    }
    return r;
  }
  // |a| - |b| for |a| >= |b|.
  static mp_limb_int subtract_magnitudes(const mp_limb_int& a, const mp_limb_int& b) {
    mp_limb_int r;
    limb borrow = 0;
    for (unsigned i = 0; i < a.n_; ++i) {
      const limb bi = i < b.n_ ? b.w_[i] : 0;
      const limb d = a.w_[i] - bi - borrow;
      borrow = (a.w_[i] < bi || (a.w_[i] == bi && borrow != 0)) ? 1 : 0;
      r.w_[i] = d;
    }
    r.n_ = a.n_;
    r.trim();
    return r;
  }
};

template <unsigned K>
unsigned msb(const mp_limb_int<K>& x) {
  return x.top_bit();
}
template <unsigned K>
bool bit_test(const mp_limb_int<K>& x, unsigned i) {
  return x.test_bit(i);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
