// Test shim (LD_PRELOAD) for tests/integration/plugin_unload.sh: a host whose
// exit is slow after it unloads the lowertrace plugin.
//
// opt and clang close every plugin handle while their statics are destroyed
// at exit (LLVM's DynamicLibrary). Anything still running the plugin's code
// then (a writer thread parked in a timed wait) crashes the host once it
// wakes, if the library was unmapped. The real window is short, so the crash
// was rare; here dlclose waits after unloading the plugin for longer than the
// writers' longest timed wait, so such a thread always wakes inside it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dlclose(void *handle) {
  static int (*real)(void *);
  if (!real) real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
  struct link_map *map = NULL;
  int ours = dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
             strstr(map->l_name, "liblowertrace-llvm");
  int rc = real(handle);
  if (ours) {
    // So that the test knows the host did unload the plugin.
    const char *mark = getenv("LT_SLOW_UNLOAD_MARK");
    if (mark) {
      int fd = open(mark, O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) close(fd);
    }
    struct timespec wait = {1, 0};  // the writers poll every 250 ms
    nanosleep(&wait, NULL);
  }
  return rc;
}
