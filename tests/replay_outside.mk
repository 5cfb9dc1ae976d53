# SPDX-License-Identifier: GPL-2.0
# the case list is compiled in
bin/replay_outside: outside/cases.h
