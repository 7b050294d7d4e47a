#!/usr/bin/env python3
"""Sequential probability ratio test on the output of ../shared/tools/match.py.

  python3 ../shared/tools/match.py --a NEW --b OLD ... | tee match.txt
  python3 bench/measure/sprt.py match.txt [--elo0 0 --elo1 10 --alpha 0.05 --beta 0.05]

Reads the running totals match.py prints after each game pair (`A: +W =D -L`) and, after each,
the log-likelihood ratio of H1 (A is elo1 stronger) against H0 (A is elo0 stronger), using the
trinomial normal approximation on the score (the approximation fishtest used for years).
Prints where the test first crossed a bound (accept H1 above log((1-beta)/alpha), accept H0
below log(beta/(1-alpha))), or the LLR so far if it has not. Elo here is logistic Elo.
A match can be stopped once the test has crossed a bound: that is what a sequential test is for.

Exit status, so scripts can act on the verdict:
  0  H1 accepted (A is better by about elo1)
  1  H0 accepted (A is not better than elo0)
  2  bad input: no running totals in the log (argparse's usage errors are 2 as well)
  3  undecided: no bound crossed yet
"""
import argparse, math, re, sys

H1_ACCEPTED, H0_ACCEPTED, BAD_INPUT, UNDECIDED = 0, 1, 2, 3

TOTALS = re.compile(r'A: \+(\d+) =(\d+) -(\d+)')


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr(w, d, l, elo0, elo1):
    n = w + d + l
    if n == 0:
        return 0.0
    score = (w + 0.5 * d) / n
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
    if var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return (s1 - s0) * (2 * score - s0 - s1) * n / (2 * var)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('log', help='match.py output (a file, or - for stdin)')
    ap.add_argument('--elo0', type=float, default=0.0)
    ap.add_argument('--elo1', type=float, default=10.0)
    ap.add_argument('--alpha', type=float, default=0.05)
    ap.add_argument('--beta', type=float, default=0.05)
    a = ap.parse_args()
    lower = math.log(a.beta / (1 - a.alpha))
    upper = math.log((1 - a.beta) / a.alpha)
    text = sys.stdin.read() if a.log == '-' else open(a.log).read()
    last = None
    for m in TOTALS.finditer(text):
        w, d, l = map(int, m.groups())
        value = llr(w, d, l, a.elo0, a.elo1)
        last = (w, d, l, value)
        if value >= upper or value <= lower:
            verdict = 'H1 accepted' if value >= upper else 'H0 accepted'
            print(f'SPRT [{a.elo0:g}, {a.elo1:g}] {verdict} after {w + d + l} games '
                  f'(+{w} ={d} -{l}), LLR {value:.2f} (bounds {lower:.2f}, {upper:.2f})')
            return H1_ACCEPTED if value >= upper else H0_ACCEPTED
    if last is None:
        print('no running totals found', file=sys.stderr)
        return BAD_INPUT
    w, d, l, value = last
    print(f'SPRT [{a.elo0:g}, {a.elo1:g}] undecided after {w + d + l} games (+{w} ={d} -{l}), '
          f'LLR {value:.2f} (bounds {lower:.2f}, {upper:.2f})')
    return UNDECIDED


if __name__ == '__main__':
    sys.exit(main())
