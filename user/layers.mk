# SPDX-License-Identifier: GPL-2.0
# The CLI's folders, one per layer (docs/layout.md), in one place for
# user/Makefile, tests/unit/Makefile and tests/fuzz/Makefile. The includer
# sets PA_USER to user/'s path. Sources say #include "name.h" whatever the
# folder: every folder is on the include path.

PA_LAYERS := core analysis sources schema check output pipeline monitor exporter cli

PA_USER_INCLUDES := $(addprefix -I$(PA_USER)/,$(PA_LAYERS))

# Every source but main.c, relative to user/ ("analysis/acs.c"): a new file
# needs no Makefile line, and the CLI and the tests build the same list.
PA_LIB_SRCS := $(filter-out cli/main.c,$(patsubst $(PA_USER)/%,%, \
	$(sort $(wildcard $(addsuffix /*.c,$(addprefix $(PA_USER)/,$(PA_LAYERS)))))))

# A source straight in user/ would be left out of every build: say where it goes.
PA_STRAY := $(wildcard $(PA_USER)/*.c $(PA_USER)/*.h)
ifneq ($(PA_STRAY),)
$(error $(PA_STRAY): move into the folder of its layer (docs/layout.md))
endif
