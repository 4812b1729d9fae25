# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz targets: a build of their own, apart from the normal one,
# with clang, libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer.
# It compiles src/ (but main.c) itself into $(FUZZ_OUT); it needs the
# config.h of a configured tree. 'make fuzz-smoke' and scripts/fuzz use
# it; by hand, from the top of a configured tree:
#
#   make -f tests/fuzz/fuzz.mk [TARGETS=evparse] smoke
#   make -f tests/fuzz/fuzz.mk clean

top_srcdir ?= .
top_builddir ?= .
FUZZ_CC ?= clang
FUZZ_OUT ?= $(top_builddir)/tests/fuzz/build
# A static pstat's config.h (PSTAT_STATIC) has libpfm4 linked, not loaded.
FUZZ_PFM := $(shell grep -q 'define PSTAT_STATIC 1' $(top_builddir)/config.h \
	2>/dev/null && grep -q 'define HAVE_LIBPFM4 1' $(top_builddir)/config.h \
	&& echo -lpfm)
FUZZ_LIBS ?= -lcap $(FUZZ_PFM) -lm
FUZZ_DIR = $(top_srcdir)/tests/fuzz

# Every target, and how many inputs fuzz-smoke gives each: five to
# fifteen seconds' worth of one core.
TARGETS = evparse evfile pmu options cpulist writers merge fmt rank control pfm_events target expr compare
RUNS_evparse = 30000
RUNS_evfile = 30000
RUNS_pmu = 50000
RUNS_options = 100000
RUNS_cpulist = 30000
RUNS_writers = 8000
RUNS_merge = 20000
RUNS_fmt = 200000
RUNS_rank = 100000
RUNS_control = 30000
RUNS_pfm_events = 20000
RUNS_target = 20000
RUNS_expr = 400000
RUNS_compare = 20000
# The same inputs every run, so that CI fails for a change, not by luck.
FUZZ_SEED ?= 1

# V=1 shows the commands.
Q = $(if $(filter 1,$(V)),,@)

SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=undefined
WARN = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS_FUZZ = -g -O1 -fno-omit-frame-pointer $(SANITIZE) $(WARN)
# src/pmu_tables.c's installed tables: none the fuzz targets read.
CPPFLAGS_FUZZ = -include $(top_builddir)/config.h -I$(top_builddir) \
	-I$(top_srcdir)/src \
	-I$(FUZZ_DIR) -DPSTAT_PMU_EVENTS_DIR='"$(top_builddir)/pmu-events"'

LIB_SRCS = $(filter-out $(top_srcdir)/src/main.c,$(wildcard $(top_srcdir)/src/*.c))
LIB_OBJS = $(patsubst $(top_srcdir)/src/%.c,$(FUZZ_OUT)/src/%.o,$(LIB_SRCS))
COMMON_OBJS = $(FUZZ_OUT)/fuzz.o $(FUZZ_OUT)/jsonread.o $(FUZZ_OUT)/csvread.o \
	$(FUZZ_OUT)/evcheck.o
BINS = $(TARGETS:%=$(FUZZ_OUT)/fuzz_%)

all: $(BINS)

$(top_builddir)/config.h:
	@echo "fuzz: no $@: configure first (scripts/bootstrap)" >&2; exit 1

# libFuzzer comes with clang: Debian's libclang-rt-14-dev.
$(FUZZ_OUT)/.libfuzzer:
	@mkdir -p $(@D)
	@printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ return 0; }\n' \
		>$(@D)/probe.c
	@$(FUZZ_CC) -fsanitize=fuzzer $(@D)/probe.c -o $(@D)/probe 2>/dev/null || \
		{ echo "fuzz: $(FUZZ_CC) cannot link libFuzzer: install clang and libclang-rt-14-dev (scripts/bootstrap does)" >&2; exit 1; }
	@touch $@

# The library with coverage for libFuzzer, but not its main.
$(FUZZ_OUT)/src/%.o: $(top_srcdir)/src/%.c $(top_builddir)/config.h $(FUZZ_OUT)/.libfuzzer
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	$(Q)$(FUZZ_CC) $(CPPFLAGS_FUZZ) $(CFLAGS_FUZZ) -fsanitize=fuzzer-no-link \
		-MMD -MP -c $< -o $@

$(FUZZ_OUT)/fuzz_%.o: $(FUZZ_DIR)/fuzz_%.c $(top_builddir)/config.h $(FUZZ_OUT)/.libfuzzer
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	$(Q)$(FUZZ_CC) $(CPPFLAGS_FUZZ) $(CFLAGS_FUZZ) -fsanitize=fuzzer-no-link \
		-MMD -MP -c $< -o $@

# The readers that check what the targets wrote: no coverage, so that
# libFuzzer does not take a new path through them for a new finding.
$(FUZZ_OUT)/%.o: $(FUZZ_DIR)/%.c $(top_builddir)/config.h $(FUZZ_OUT)/.libfuzzer
	@mkdir -p $(@D)
	@echo "  FUZZCC   $@"
	$(Q)$(FUZZ_CC) $(CPPFLAGS_FUZZ) $(CFLAGS_FUZZ) -MMD -MP -c $< -o $@

$(FUZZ_OUT)/libpstat.a: $(LIB_OBJS)
	@echo "  FUZZAR   $@"
	$(Q)rm -f $@
	$(Q)ar cr $@ $(LIB_OBJS)

$(FUZZ_OUT)/fuzz_%: $(FUZZ_OUT)/fuzz_%.o $(COMMON_OBJS) $(FUZZ_OUT)/libpstat.a
	@echo "  FUZZLD   $@"
	$(Q)$(FUZZ_CC) $(CFLAGS_FUZZ) -fsanitize=fuzzer -o $@ $< $(COMMON_OBJS) \
		$(FUZZ_OUT)/libpstat.a $(FUZZ_LIBS)

# Each target over its seed corpus, then for RUNS_<target> inputs more;
# what it finds goes to $(FUZZ_OUT)/smoke, crashes to $(FUZZ_OUT)/crashes.
smoke: $(BINS)
	@failed=; \
	for tr in $(foreach t,$(TARGETS),$(t):$(RUNS_$(t))); do \
		t=$${tr%%:*}; runs=$${tr#*:}; \
		work=$(FUZZ_OUT)/smoke/$$t; \
		rm -rf $$work; mkdir -p $$work $(FUZZ_OUT)/crashes; \
		start=$$(date +%s); \
		if UBSAN_OPTIONS=print_stacktrace=1 $(FUZZ_OUT)/fuzz_$$t \
			-runs=$$runs -seed=$(FUZZ_SEED) -max_len=4096 \
			-timeout=30 -rss_limit_mb=2048 \
			-dict=$(FUZZ_DIR)/$$t.dict \
			-artifact_prefix=$(FUZZ_OUT)/crashes/$$t- \
			$$work $(FUZZ_DIR)/corpus/$$t >$$work.log 2>&1; then \
			echo "fuzz-smoke: $$t: ok, $$runs runs in $$(($$(date +%s) - start)) s"; \
		else \
			echo "fuzz-smoke: $$t: FAILED; the end of $$work.log:"; \
			tail -n 40 $$work.log; \
			failed="$$failed $$t"; \
		fi; \
	done; \
	test -z "$$failed" || { echo "fuzz-smoke: failed:$$failed"; exit 1; }

clean:
	rm -rf $(FUZZ_OUT)

.PHONY: all smoke clean
# The objects of the targets are no intermediate files to remove.
.SECONDARY:

-include $(LIB_OBJS:.o=.d) $(COMMON_OBJS:.o=.d) $(BINS:=.d)
