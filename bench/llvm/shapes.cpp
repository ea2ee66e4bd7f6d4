// A ~200-line C++ translation unit of the kind users compile every day, for
// bench/llvm/run.sh: templates, virtual calls, exceptions, std::variant,
// lambdas and standard containers, so clang-22 -O2 instantiates and inlines a
// few hundred functions.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace shapes {

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  virtual std::string name() const = 0;
};

struct Circle final : Shape {
  explicit Circle(double r) : r_(r) {
    if (r < 0) throw std::invalid_argument("negative radius");
  }
  double area() const override { return M_PI * r_ * r_; }
  double perimeter() const override { return 2 * M_PI * r_; }
  std::string name() const override { return "circle"; }
  double r_;
};

struct Rect : Shape {
  Rect(double w, double h) : w_(w), h_(h) {
    if (w < 0 || h < 0) throw std::invalid_argument("negative side");
  }
  double area() const override { return w_ * h_; }
  double perimeter() const override { return 2 * (w_ + h_); }
  std::string name() const override { return "rect"; }
  double w_, h_;
};

struct Square final : Rect {
  explicit Square(double s) : Rect(s, s) {}
  std::string name() const override { return "square"; }
};

template <class T, class Compare = std::less<T>>
class TopK {
public:
  explicit TopK(std::size_t k) : k_(k) {}
  void push(T v) {
    items_.push_back(std::move(v));
    std::push_heap(items_.begin(), items_.end(), Compare{});
    if (items_.size() > k_) {
      std::pop_heap(items_.begin(), items_.end(), Compare{});
      items_.pop_back();
    }
  }
  std::vector<T> sorted() const {
    std::vector<T> out = items_;
    std::sort(out.begin(), out.end(), Compare{});
    return out;
  }

private:
  std::size_t k_;
  std::vector<T> items_;
};

using Value = std::variant<long, double, std::string, std::vector<long>>;

struct Describe {
  std::string operator()(long v) const { return "int " + std::to_string(v); }
  std::string operator()(double v) const {
    std::ostringstream os;
    os << "real " << v;
    return os.str();
  }
  std::string operator()(const std::string &s) const { return "text '" + s + "'"; }
  std::string operator()(const std::vector<long> &v) const {
    return "list of " + std::to_string(v.size()) + " summing to " +
           std::to_string(std::accumulate(v.begin(), v.end(), 0L));
  }
};

double weight(const Value &v) {
  return std::visit(
      [](const auto &x) -> double {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, long>) return static_cast<double>(x);
        else if constexpr (std::is_same_v<T, double>) return x;
        else if constexpr (std::is_same_v<T, std::string>) return static_cast<double>(x.size());
        else return static_cast<double>(x.size()) * 1.5;
      },
      v);
}

template <class Key, class Fn>
auto group_by(const std::vector<std::unique_ptr<Shape>> &xs, Fn key) {
  std::map<Key, std::vector<const Shape *>> groups;
  for (const auto &s : xs) groups[key(*s)].push_back(s.get());
  return groups;
}

std::unique_ptr<Shape> make_shape(const std::string &kind, double a, double b) {
  if (kind == "circle") return std::make_unique<Circle>(a);
  if (kind == "rect") return std::make_unique<Rect>(a, b);
  if (kind == "square") return std::make_unique<Square>(a);
  throw std::runtime_error("unknown shape: " + kind);
}

std::optional<std::unique_ptr<Shape>> try_make(const std::string &kind, double a, double b) {
  try {
    return make_shape(kind, a, b);
  } catch (const std::invalid_argument &) {
    return std::nullopt;
  }
}

class Registry {
public:
  using Handler = std::function<double(const Shape &)>;
  void add(std::string name, Handler h) { handlers_.emplace(std::move(name), std::move(h)); }
  double apply(const std::string &name, const Shape &s) const {
    auto it = handlers_.find(name);
    if (it == handlers_.end()) throw std::out_of_range("no handler " + name);
    return it->second(s);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto &[k, v] : handlers_) out.push_back(k);
    std::sort(out.begin(), out.end());
    return out;
  }

private:
  std::unordered_map<std::string, Handler> handlers_;
};

template <class It, class Pred>
std::size_t count_runs(It first, It last, Pred same) {
  if (first == last) return 0;
  std::size_t runs = 1;
  for (It prev = first++; first != last; prev = first++)
    if (!same(*prev, *first)) ++runs;
  return runs;
}

}  // namespace shapes

int run(int argc, char **argv) {
  using namespace shapes;
  std::vector<std::unique_ptr<Shape>> all;
  const char *kinds[] = {"circle", "rect", "square", "hexagon", "rect"};
  for (int i = 0; i < argc * 10; ++i) {
    std::string kind = kinds[i % 5];
    try {
      if (auto s = try_make(kind, i % 7 - 1, i % 3 + 1)) all.push_back(std::move(*s));
    } catch (const std::exception &e) {
      if (i == 3) std::puts(e.what());
    }
  }
  auto by_name = group_by<std::string>(all, [](const Shape &s) { return s.name(); });
  auto by_size = group_by<int>(all, [](const Shape &s) { return static_cast<int>(s.area()); });

  TopK<double> biggest(3);
  TopK<std::string, std::greater<std::string>> names(2);
  for (const auto &s : all) {
    biggest.push(s->area());
    names.push(s->name());
  }

  Registry reg;
  double scale = argc * 0.5;
  reg.add("area", [](const Shape &s) { return s.area(); });
  reg.add("ratio", [](const Shape &s) { return s.area() / std::max(s.perimeter(), 1e-9); });
  reg.add("scaled", [scale](const Shape &s) { return s.perimeter() * scale; });

  std::vector<Value> values{3L, 2.5, std::string(argv[0]), std::vector<long>{1, 2, 3}};
  for (const auto &s : all) values.emplace_back(s->area());
  double total = 0;
  for (const auto &v : values) {
    total += weight(v);
    if (std::visit(Describe{}, v).size() > 40) total += 1;
  }

  double handled = 0;
  for (const auto &n : reg.names())
    for (const auto &s : all) {
      try {
        handled += reg.apply(n, *s);
      } catch (const std::out_of_range &) {
        handled -= 1;
      }
    }
  std::vector<double> areas;
  std::transform(all.begin(), all.end(), std::back_inserter(areas), [](const auto &s) { return s->area(); });
  std::size_t runs = count_runs(areas.begin(), areas.end(), [](double a, double b) { return std::fabs(a - b) < 1e-6; });
  return static_cast<int>(total + handled + runs + by_name.size() + by_size.size() + biggest.sorted().size() +
                          names.sorted().size());
}

int main(int argc, char **argv) { return run(argc, argv) & 0xff; }
