// Closes the floating-point region that detail/fp_begin.hpp opened: the
// includer's own contraction flags apply again.
//
// No include guard: closed once per header.
#if defined(__clang__)
#pragma float_control(pop)
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
