// Bytes between the processes of a parallel run: a writer that appends plain values, strings
// and vectors, and a reader that takes them back in the same order (same machine, same build:
// no byte-order or padding conversion). A read past the end throws.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hs {

using Bytes = std::vector<uint8_t>;

class ByteWriter {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>, "put() takes plain values");
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  void put_raw(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }
  void put_string(const std::string& s) {
    put<uint64_t>(s.size());
    put_raw(s.data(), s.size());
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>, "put_vector() takes plain values");
    put<uint64_t>(v.size());
    put_raw(v.data(), v.size() * sizeof(T));
  }
  Bytes& bytes() { return bytes_; }
  Bytes take() { return std::move(bytes_); }
  bool empty() const { return bytes_.empty(); }

 private:
  Bytes bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const Bytes& b) : data_(b.data()), size_(b.size()) {}
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>, "get() takes plain values");
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  void get_raw(void* out, size_t n) {
    const uint8_t* p = take(n);
    // memcpy's pointers may not be null even for no bytes, and an empty vector's data() is.
    if (n > 0) std::memcpy(out, p, n);
  }
  std::string get_string() {
    const auto n = get<uint64_t>();
    const char* p = reinterpret_cast<const char*>(take(n));
    return std::string(p, n);
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto n = get<uint64_t>();
    // Before allocating: a broken message's length may be anything.
    if (n > (size_ - pos_) / sizeof(T)) throw std::runtime_error(kEndedEarly);
    std::vector<T> v(n);
    get_raw(v.data(), n * sizeof(T));
    return v;
  }
  bool done() const { return pos_ == size_; }

 private:
  const uint8_t* take(size_t n) {
    if (n > size_ - pos_) throw std::runtime_error(kEndedEarly);
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  static constexpr const char* kEndedEarly = "parallel run: a message ended early";
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

}  // namespace hs
