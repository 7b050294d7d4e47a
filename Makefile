# OpenBench convention: `make` builds the engine; `make EXE=path` puts the binary at that path;
# `make EVALFILE=net.nnue` builds another network into it (default: nnue/net12-h256b8.nnue, the
# choice is build.rs's). On Windows (`OS=Windows_NT`) the binary is threefold.exe.
# `make ARCH=x86-64-v3` (or x86-64-v2, native) builds for that CPU level into target/ARCH/; the
# default is generic x86-64, which runs on any 64-bit PC.
ifeq ($(OS),Windows_NT)
SUFFIX = .exe
endif
EXE ?= threefold$(SUFFIX)
ARCH ?=
export EVALFILE

ifeq ($(ARCH),)
BUILD = cargo build --release
BIN = target/release/threefold$(SUFFIX)
else
BUILD = RUSTFLAGS="$(strip $(RUSTFLAGS) -C target-cpu=$(ARCH))" cargo build --release --target-dir target/$(ARCH)
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
