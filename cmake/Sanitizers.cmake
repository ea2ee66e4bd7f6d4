# LOWERTRACE_SANITIZE=address,undefined (presets asan) or thread (preset tsan):
# every target of the tree is instrumented. UBSan reports are made fatal so
# that a test with undefined behaviour fails instead of printing and passing.
if(LOWERTRACE_SANITIZE)
  set(LT_SAN_FLAGS -fsanitize=${LOWERTRACE_SANITIZE} -fno-omit-frame-pointer -gline-tables-only)
  if(LOWERTRACE_SANITIZE MATCHES "undefined")
    list(APPEND LT_SAN_FLAGS -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${LT_SAN_FLAGS})
  add_link_options(-fsanitize=${LOWERTRACE_SANITIZE})
  message(STATUS "lowertrace: sanitizers ${LOWERTRACE_SANITIZE}")
endif()

# Coverage instrumentation for libFuzzer in every library a fuzzer links
# (fuzz/CMakeLists.txt adds -fsanitize=fuzzer to the fuzzers themselves).
if(LOWERTRACE_BUILD_FUZZERS)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
