#pragma once
// A std::vector whose resize leaves new elements of plain types unset
// rather than zeroed, so that the threads that go on to write them are the
// first to touch their pages: the first touch of a page is what costs on a
// large fresh array, and zeroing would do it on one thread.
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gdp {

template <class T>
struct NoFillAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoFillAllocator<U>;
  };
  NoFillAllocator() = default;
  template <class U>
  NoFillAllocator(const NoFillAllocator<U>&) noexcept {}
  // Value-initialisation (what resize asks for) becomes default-initialisation.
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), at,
                                                        std::forward<Args>(args)...);
  }
};

template <class T>
using NoFillVector = std::vector<T, NoFillAllocator<T>>;

}  // namespace gdp
