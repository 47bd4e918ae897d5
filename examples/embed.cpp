// Embedding gpusql: open a database, load a CSV, run SQL, read typed values.
// Uses only the public headers. Usage: embed_example path/to/records.csv [host|gpu]
#include <gpusql/arrow.hpp>
#include <gpusql/gpusql.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s records.csv [host|gpu]\n", argv[0]);
    return 2;
  }
  gpusql::Options options;
  if (argc > 2) options.executor = std::strcmp(argv[2], "gpu") == 0 ? gpusql::ExecutorKind::Gpu : gpusql::ExecutorKind::Host;
  try {
    gpusql::Database db(options);
    std::cout << "executor: " << db.executor_description() << "\n";
    db.load_csv("records", argv[1]);
    gpusql::Result r = db.query("SELECT COUNT(*) AS n, MIN(weight) AS lightest FROM records WHERE weight < 0.1");
    for (std::size_t c = 0; c < r.column_count(); ++c)
      std::cout << r.column_name(c) << " " << gpusql::type_name(r.column_type(c)) << "\n";
    int64_t n = r.get<int64_t>(0, 0);
    double lightest = r.get<double>(0, 1);
    std::cout << "n=" << n << " lightest=" << r.text(0, 1) << " (" << lightest << ")\n";
    // The same result handed over through the Arrow C data interface, as
    // pyarrow, Polars or DuckDB would take it.
    ArrowSchema schema;
    ArrowArray array;
    gpusql::export_arrow(r, &schema, &array);
    std::cout << "arrow: " << schema.format << " of " << array.length << " row(s):";
    for (int64_t c = 0; c < schema.n_children; ++c)
      std::cout << " " << schema.children[c]->name << " " << schema.children[c]->format;
    std::cout << ", n=" << static_cast<const int64_t*>(array.children[0]->buffers[1])[0] << "\n";
    array.release(&array);
    schema.release(&schema);
    // Errors are exceptions carrying the position of the fault.
    try {
      db.query("SELECT weigth FROM records");
    } catch (const gpusql::Error& e) {
      std::cout << "error at line " << *e.line() << ", column " << *e.column() << ":\n" << e.what() << "\n";
    }
  } catch (const gpusql::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
