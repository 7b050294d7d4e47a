# OpenBench convention: `make` builds the engine; `make EXE=path` puts the binary at that path;
# `make EVALFILE=net.nnue` builds another network into it (default: nnue/net12-h256b8.nnue, the
# choice is build.rs's). On Windows (`OS=Windows_NT`) the binary is threefold.exe.
# `make ARCH=x86-64-v3` (or x86-64-v2, native) builds for that CPU level into target/ARCH/; the
# default is generic x86-64, which runs on any 64-bit PC.
# `make TUNE=1` builds the tuning engine (the cargo feature `tune`: every tunable search number
# is a UCI option, as OpenBench's SPSA sets them). OpenBench builds a commit with a plain
# `make`, so a tuning branch turns it on for good by committing a file `tune.mk` beside this
# one that holds the line `TUNE ?= 1`; main has no such file.
-include tune.mk
ifeq ($(OS),Windows_NT)
SUFFIX = .exe
endif
EXE ?= threefold$(SUFFIX)
ARCH ?=
export EVALFILE

TUNE ?=
FEATURES = $(if $(strip $(TUNE)),--features tune,)

ifeq ($(ARCH),)
BUILD = cargo build --release $(FEATURES)
BIN = target/release/threefold$(SUFFIX)
else
BUILD = RUSTFLAGS="$(strip $(RUSTFLAGS) -C target-cpu=$(ARCH))" cargo build --release $(FEATURES) --target-dir target/$(ARCH)
BIN = target/$(ARCH)/release/threefold$(SUFFIX)
endif

.PHONY: all test bench clean

all:
	$(BUILD)
	cp $(BIN) $(EXE)

test:
	cargo test --release

bench:
	$(BUILD)
	$(BIN) bench

clean:
	cargo clean
	rm -f threefold threefold.exe
