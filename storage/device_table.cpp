#include "storage/device_table.hpp"

#include "storage/table.hpp"

namespace gpusql {

std::size_t DeviceTable::bytes() const {
  std::size_t total = 0;
  for (const auto& c : columns) total += c.data.size() + c.validity.size();
  return total;
}

std::unique_ptr<DeviceTable> upload_table(const Table& table, DeviceContext& context) {
  std::size_t needed = 0;
  for (const auto& c : table.host) needed += c.bytes.size() + c.validity.size() * sizeof(uint32_t);
  auto device = std::make_unique<DeviceTable>();
  try {
    for (const auto& c : table.host) {
      DeviceColumn d;
      d.type = c.type;
      d.size = c.size;
      d.data = DeviceBuffer(context, c.bytes.size());
      d.validity = DeviceBuffer(context, c.validity.size() * sizeof(uint32_t));
      device->columns.push_back(std::move(d));
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::OutOfMemory) throw;
    device.reset();
    throw Error(ErrorKind::OutOfMemory, "out of GPU memory: table \"" + table.name + "\" needs " +
                                            format_bytes(needed) + ", " + format_bytes(context.free_bytes()) +
                                            " free; no table was changed");
  }
  for (std::size_t i = 0; i < table.host.size(); ++i) {
    const auto& h = table.host[i];
    auto& d = device->columns[i];
    if (!h.bytes.empty())
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(d.data.data(), h.bytes.data(), h.bytes.size(), cudaMemcpyHostToDevice,
                                      context.stream()));
    if (!h.validity.empty())
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(d.validity.data(), h.validity.data(), h.validity.size() * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, context.stream()));
  }
  context.synchronize();
  return device;
}

}  // namespace gpusql
