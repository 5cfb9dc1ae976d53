# gdb tests print its variables: keep them
CFLAGS_crash_null := -O0
