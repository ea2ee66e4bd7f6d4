// capture/llvm/pass_filter.h - which new-PM "passes" are plumbing, not passes.
//
// Pass managers, adaptors and analysis proxies wrap the real passes; recording
// them would double every record. We use the same rule as LLVM's own
// -print-after-all (StandardInstrumentations' isIgnored): the class name, cut at
// its first '<', ends with one of these words. Matching that rule exactly is
// what lets our record list equal the -print-after-all banner list.
#pragma once

#include <string_view>

namespace lowertrace::llvm_capture {

inline bool is_plumbing(std::string_view pass_id) {
  std::string_view prefix = pass_id.substr(0, pass_id.find('<'));
  constexpr std::string_view kSuffixes[] = {
      "PassManager",   "PassAdaptor",  "AnalysisManagerProxy", "DevirtSCCRepeatedPass",
      "ModuleInlinerWrapperPass", "VerifierPass", "PrintModulePass", "PrintMIRPass",
      "PrintMIRPreparePass"};
  for (std::string_view s : kSuffixes)
    if (prefix.size() >= s.size() && prefix.substr(prefix.size() - s.size()) == s) return true;
  return false;
}

// The passes that write the module out as IR (clang -emit-llvm, -flto, opt's
// output): after them, no back end runs on the module in this process.
inline bool writes_ir(std::string_view pass_id) {
  return pass_id == "BitcodeWriterPass" || pass_id == "ThinLTOBitcodeWriterPass" || pass_id == "PrintModulePass";
}

}  // namespace lowertrace::llvm_capture
