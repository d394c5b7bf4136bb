// Opens a floating-point region of rigidref: the code up to the matching
// detail/fp_end.hpp is compiled with FMA contraction off, so each multiply
// and each add rounds on its own, whatever -ffp-contract the includer uses;
// the includer's own code keeps its flags (derivations/double_word.md,
// D-EFT-7). Every header under rigidref/ includes this after its #includes
// and fp_end.hpp at its end (tests/fp_region_test.cpp).
//
//   GCC    push_options / optimize("fp-contract=off") / pop_options: a
//          per-function option, kept by functions and templates defined
//          here wherever they are instantiated. A function inlined into
//          the includer's code takes the includer's flags; only the
//          always-inline helpers (RIGIDREF_HOT) are, when called from
//          there, and detail/fp_barrier.hpp keeps their exact steps exact.
//   clang  float_control(push) / fp contract(off) / float_control(pop),
//          kept by each operation, inlined or not. -ffp-contract=fast
//          overrides it (clang documents this); fp_barrier.hpp again.
//
// No include guard: opened once per header.
#if defined(__clang__)
#pragma float_control(push)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif
