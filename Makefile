# The posenc C library, as C users build it: a C compiler and make, nothing
# else (no emcc, npm or test tools; build.sh builds the wasm, the CLI and the
# test tools).
#
#   make                            build/lib/libposenc.a and libposenc.so.VERSION (soname libposenc.so.MAJOR)
#   make install PREFIX=/usr/local  posenc.h, both libraries, posenc.pc (pkg-config) and
#                                   lib/cmake/posenc/ (CMake's find_package(posenc)); DESTDIR works too
#   make uninstall PREFIX=...       removes what install put there
#   make SIMD=scalar                the scalar kernels only (SIMD=simde, the default when SIMDe's
#                                   headers are found, runs the SIMD ones; both give the same bits)
#
# ELF platforms (Linux, the BSDs). Only the pe_ entry points of posenc.h are
# exported: everything is compiled with -fvisibility=hidden and posenc.h marks
# its declarations PE_API; the static library's internal names are made local
# too, so neither can clash with a program's own.

VERSION := $(shell sed -n 's/^.define PE_VERSION_STRING *"\(.*\)"/\1/p' src/core/posenc.h)
MAJOR   := $(firstword $(subst ., ,$(VERSION)))

CC      ?= cc
AR      ?= ar
LD      ?= ld
OBJCOPY ?= objcopy
CFLAGS  ?= -O2
BUILDDIR ?= build/lib

PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR     ?= $(LIBDIR)/cmake/posenc

# SIMD as build.sh chooses it: the wasm_simd128.h kernels through SIMDe when
# its headers are there (SSE4.2 on x86-64), else the scalar kernels.
ifeq ($(origin SIMD),undefined)
SIMD := $(shell printf '\043include <simde/wasm/simd128.h>\n' | $(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 \
	&& echo simde || echo scalar)
endif
ifeq ($(SIMD),simde)
SIMD_FLAGS := -DPE_NATIVE_SIMD $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),-msse4.2)
else ifneq ($(SIMD),scalar)
$(error SIMD must be simde or scalar, not '$(SIMD)')
endif

# Not overridable: the same bits as every other build need no fused
# multiply-add and no fast-math (the core calls no libm).
LIB_CFLAGS := -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Isrc/core \
	-ffp-contract=off -fno-fast-math -fPIC -fvisibility=hidden $(SIMD_FLAGS)

SOURCES := $(shell find src/core -name '*.c' | LC_ALL=C sort)
OBJECTS := $(SOURCES:src/core/%.c=$(BUILDDIR)/obj/%.o)
STATIC  := $(BUILDDIR)/libposenc.a
SHARED  := $(BUILDDIR)/libposenc.so.$(VERSION)

.PHONY: all static shared install uninstall clean
all: static shared
static: $(STATIC)
shared: $(SHARED)

$(BUILDDIR)/obj/%.o: src/core/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

# The archive holds one relocatable object whose hidden symbols are local.
$(STATIC): $(OBJECTS)
	$(LD) -r -o $(BUILDDIR)/posenc-all.o $(OBJECTS)
	$(OBJCOPY) --localize-hidden $(BUILDDIR)/posenc-all.o
	rm -f $@
	$(AR) rcs $@ $(BUILDDIR)/posenc-all.o

$(SHARED): $(OBJECTS)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libposenc.so.$(MAJOR) -Wl,-z,noexecstack -o $@ $(OBJECTS)
	ln -sf libposenc.so.$(VERSION) $(BUILDDIR)/libposenc.so.$(MAJOR)
	ln -sf libposenc.so.$(MAJOR) $(BUILDDIR)/libposenc.so

# Text files with the install paths filled in.
SUBST := sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	-e 's|@VERSION@|$(VERSION)|g' -e 's|@MAJOR@|$(MAJOR)|g'

install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	install -m 644 src/core/posenc.h $(DESTDIR)$(INCLUDEDIR)/posenc.h
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libposenc.a
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/libposenc.so.$(VERSION)
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libposenc.so.$(MAJOR)
	ln -sf libposenc.so.$(MAJOR) $(DESTDIR)$(LIBDIR)/libposenc.so
	$(SUBST) src/lib/posenc.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/posenc.pc
	$(SUBST) src/lib/posenc-config.cmake.in > $(DESTDIR)$(CMAKEDIR)/posenc-config.cmake
	$(SUBST) src/lib/posenc-config-version.cmake.in > $(DESTDIR)$(CMAKEDIR)/posenc-config-version.cmake

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/posenc.h $(DESTDIR)$(LIBDIR)/libposenc.a \
		$(DESTDIR)$(LIBDIR)/libposenc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libposenc.so.$(MAJOR) \
		$(DESTDIR)$(LIBDIR)/libposenc.so $(DESTDIR)$(PKGCONFIGDIR)/posenc.pc \
		$(DESTDIR)$(CMAKEDIR)/posenc-config.cmake $(DESTDIR)$(CMAKEDIR)/posenc-config-version.cmake
	-rmdir $(DESTDIR)$(CMAKEDIR)

clean:
	rm -rf $(BUILDDIR)

-include $(OBJECTS:.o=.d)
