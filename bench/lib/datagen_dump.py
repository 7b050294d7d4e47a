"""The positions of `threefold datagen` files, read through `threefold datagen --dump`.

Shared by the scripts that read the self-play data (`bench/training/`: `fit_wdl.py`,
`eval_scale.py`, `endgame_book.py`)."""
import subprocess


def dump_rows(engine, data, every=1, offset=0):
    """(fen, move, White-relative score, White's result) of every `every`-th position of the
    datagen file or directory `data`, from the `offset`-th."""
    dump = subprocess.run([engine, 'datagen', '--dump', data], capture_output=True, text=True,
                          check=True).stdout
    for i, line in enumerate(dump.splitlines()):
        if i % every != offset % every:
            continue
        fen, move, score, result = (x.strip() for x in line.split('|'))
        yield fen, move, int(score), float(result)
