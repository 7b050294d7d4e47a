# OpenBench convention: `make` builds the engine; `make EXE=path` puts the binary at that path.
EXE ?= threefold

.PHONY: all test bench clean

all:
	cargo build --release
	cp target/release/threefold $(EXE)

test:
	cargo test --release

bench:
	cargo run --release -- bench

clean:
	cargo clean
	rm -f threefold
