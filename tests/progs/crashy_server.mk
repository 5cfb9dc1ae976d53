# the demo prints variables of the crashing frame in gdb
CFLAGS_crashy_server := -O1
