# SPDX-License-Identifier: GPL-2.0
# the case list is compiled in, in both (portable_outside replays on the host
# what replay_outside exported)
bin/replay_outside bin/portable_outside: outside/cases.h
