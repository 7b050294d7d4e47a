//! NNUE inference: a `(768 -> N) x 2 -> 1` perspective network with SCReLU and output buckets
//! chosen by the number of pieces, quantised to i16, evaluated from accumulators that a
//! search updates move by move.
//!
//! - `network.rs`: the file (format: `nnue/FORMAT.md`), loading, validation and
//!   [`NetworkError`];
//! - `features.rs`: the 768 inputs of each perspective (mirrored left to right or not, the
//!   [`InputLayout`]), and the [`Changes`] a move makes;
//! - `accumulator.rs`: [`Accumulator`], refreshed from a position or updated from its parent;
//! - `forward.rs`: SCReLU, the output layer and the centipawn scale ([`evaluate`]);
//! - `simd.rs`: the i16/i32 kernels, auto-vectorised, with an AVX2 copy chosen at run time;
//! - `embedded.rs`: the network built into the binary, and whether it is used by default.
//!
//! # Use from a search (make/unmake)
//!
//! `search::evaluation` keeps the accumulators of a search, lazily. The pattern, with
//! `net: &Network`:
//!
//! ```text
//! stack: Vec<Accumulator>       one per ply, each Accumulator::new(net), made once per search
//! root:  stack[0].refresh(net, &root_pos)
//! make:  let changes = Changes::of_move(&pos, m);          // pos: the position BEFORE m
//!        let (done, rest) = stack.split_at_mut(ply + 1);
//!        rest[0].update(&done[ply], net, &changes);        // copy-and-update, no allocation
//! unmake: nothing (the parent's accumulator is still stack[ply])
//! null move: stack[ply + 1] = stack[ply].clone() (or evaluate from stack[ply]; no piece moves)
//! eval:  evaluate(net, &stack[ply], &pos)                 // centipawns for the side to move
//! ```
//!
//! `Accumulator::refresh` recomputes from scratch whenever that is simpler (a new root, a
//! position set from outside). An incrementally updated accumulator equals the refreshed one
//! exactly (integers, tested over random games with every kind of move), so the search's
//! node counts do not depend on which is used.

mod accumulator;
mod embedded;
mod features;
mod forward;
mod network;
pub mod simd;

pub use accumulator::Accumulator;
pub use embedded::{EMBEDDED_FILE, USE_NNUE_BY_DEFAULT, default_network};
pub use features::{
    Changes, INPUTS, InputLayout, index, mirror, oriented, other_perspective, pieces,
};
pub use forward::{MAX_EVAL, evaluate, evaluate_position};
pub use network::{
    DEFAULT_QA, DEFAULT_QB, HEADER_BYTES, HEADER_BYTES_V1, HEADER_BYTES_V3, HIDDEN_STEP, MAGIC,
    MAX_BUCKETS, MAX_HIDDEN, Network, NetworkError, NetworkParts, VERSION, file_bytes,
    output_bucket,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{parse_fen, parse_fen_in};
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

    struct TestRng(u64);

    impl TestRng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn range(&mut self, bound: i32) -> i32 {
            ((self.next() >> 11) % (2 * bound as u64 + 1)) as i32 - bound
        }
    }

    /// A network with random weights of about a trained net's size.
    fn random_network(hidden: usize, buckets: usize, seed: u64) -> Network {
        random_network_of(InputLayout::Plain, hidden, buckets, seed)
    }

    /// The same with the input layout chosen.
    fn random_network_of(layout: InputLayout, hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = TestRng(seed | 1);
        Network::from_parts(NetworkParts {
            hidden,
            buckets,
            layout,
            qa: DEFAULT_QA,
            qb: DEFAULT_QB,
            scale: 400,
            feature_weights: (0..INPUTS * hidden).map(|_| rng.range(60) as i16).collect(),
            feature_biases: (0..hidden).map(|_| rng.range(100) as i16).collect(),
            output_weights: (0..2 * hidden * buckets)
                .map(|_| rng.range(127) as i16)
                .collect(),
            output_biases: (0..buckets).map(|_| rng.range(20_000)).collect(),
        })
        .expect("valid parts")
    }

    const STARTS: [(&str, bool); 5] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        (
            "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2PpP/R3K2R w KQkq e6 0 1",
            false,
        ),
        ("r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1", false),
        (
            "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1",
            true,
        ),
        (
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            true,
        ),
    ];

    fn start(fen: &str, chess960: bool) -> Chess {
        if chess960 {
            parse_fen_in(fen, CastlingMode::Chess960).expect("legal")
        } else {
            parse_fen(fen).expect("legal")
        }
    }

    /// A legal move, castling, en passant and promotions chosen first when there are any.
    fn pick(pos: &Chess, rng: &mut TestRng) -> Option<Move> {
        let moves = pos.legal_moves();
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
            .collect();
        if !special.is_empty() && rng.next().is_multiple_of(2) {
            return Some(special[(rng.next() % special.len() as u64) as usize]);
        }
        (!moves.is_empty()).then(|| moves[(rng.next() % moves.len() as u64) as usize])
    }

    /// The positions of ten random games of up to 60 plies from the starts, after each move.
    fn walked_positions(seed: u64) -> Vec<Chess> {
        let mut rng = TestRng(seed);
        let mut positions = Vec::new();
        for game in 0..10 {
            let (fen, chess960) = STARTS[game % STARTS.len()];
            let mut pos = start(fen, chess960);
            for _ in 0..60 {
                let Some(m) = pick(&pos, &mut rng) else {
                    break;
                };
                pos.play_unchecked(m);
                positions.push(pos.clone());
            }
        }
        positions
    }

    #[test]
    fn incremental_updates_equal_refreshes_over_random_games() {
        for layout in [InputLayout::Plain, InputLayout::Mirrored] {
            incremental_updates_equal_refreshes(&random_network_of(layout, 32, 8, 7));
        }
    }

    fn incremental_updates_equal_refreshes(net: &Network) {
        let mut rng = TestRng(99);
        // castle, en passant, promotion, capture, a king crossing between the d- and e-files
        let mut kinds = [0usize; 5];
        for game in 0..40 {
            let (fen, chess960) = STARTS[game % STARTS.len()];
            let mut pos = start(fen, chess960);
            let mut acc = Accumulator::of(net, &pos);
            let mut next = Accumulator::new(net);
            for _ in 0..120 {
                let Some(m) = pick(&pos, &mut rng) else {
                    break;
                };
                kinds[0] += usize::from(m.is_castle());
                kinds[1] += usize::from(m.is_en_passant());
                kinds[2] += usize::from(m.is_promotion());
                kinds[3] += usize::from(m.is_capture());
                let changes = Changes::of_move(&pos, m);
                kinds[4] += usize::from(changes.king_crossing().is_some());
                next.update(&acc, net, &changes);
                pos.play_unchecked(m);
                if let Some(board) = changes.king_crossing() {
                    assert_eq!(board, pos.board());
                }
                assert_eq!(
                    next,
                    Accumulator::of(net, &pos),
                    "after {m:?} in game {game}"
                );
                std::mem::swap(&mut acc, &mut next);
                assert_eq!(evaluate(net, &acc, &pos), evaluate_position(net, &pos));
            }
        }
        assert!(kinds.iter().all(|&k| k > 0), "move kinds seen: {kinds:?}");
    }

    #[test]
    fn mirrored_positions_with_colours_swapped_score_the_same() {
        let net = random_network(32, 8, 3);
        let mut distinct = std::collections::HashSet::new();
        for pos in walked_positions(5) {
            let mode = pos.castles().mode();
            let mirrored: Chess = pos
                .to_setup(EnPassantMode::Legal)
                .into_mirrored()
                .position(mode)
                .expect("a mirrored legal position is legal");
            let score = evaluate_position(&net, &pos);
            assert_eq!(score, evaluate_position(&net, &mirrored));
            distinct.insert(score);
        }
        // The check means something only if the scores differ between positions.
        assert!(distinct.len() > 50, "{} distinct scores", distinct.len());
    }

    /// `pos` mirrored left to right, without castling rights or an en passant square (a
    /// legal position: the same pieces, the same attacks, mirrored).
    fn mirrored_left_right(pos: &Chess) -> Chess {
        let mut setup = pos.to_setup(EnPassantMode::Legal);
        setup.board.flip_horizontal();
        setup.castling_rights = shakmaty::Bitboard::EMPTY;
        setup.ep_square = None;
        setup
            .position(CastlingMode::Chess960)
            .expect("a mirrored legal position is legal")
    }

    #[test]
    fn a_mirrored_network_scores_a_position_and_its_left_right_mirror_the_same() {
        let mirrored = random_network_of(InputLayout::Mirrored, 32, 8, 3);
        let plain = random_network_of(InputLayout::Plain, 32, 8, 3);
        let (mut distinct, mut plain_differs) = (std::collections::HashSet::new(), 0);
        for pos in walked_positions(8) {
            let flipped = mirrored_left_right(&pos);
            let score = evaluate_position(&mirrored, &pos);
            assert_eq!(score, evaluate_position(&mirrored, &flipped));
            distinct.insert(score);
            plain_differs +=
                usize::from(evaluate_position(&plain, &pos) != evaluate_position(&plain, &flipped));
        }
        // Meaningful only if the scores differ between positions, and the plain network's
        // between a position and its mirror.
        assert!(distinct.len() > 50, "{} distinct scores", distinct.len());
        assert!(plain_differs > 50, "{plain_differs} mirrors scored apart");
    }

    #[test]
    fn a_mirrored_network_is_written_as_version_3() {
        let net = random_network_of(InputLayout::Mirrored, 16, 8, 4);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(16, 8, InputLayout::Mirrored));
        assert_eq!(bytes[4], 3);
        assert_eq!(bytes[HEADER_BYTES..HEADER_BYTES_V3], 1u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert!(net.shape().contains("mirrored"));
        let mut unknown = bytes.clone();
        unknown[HEADER_BYTES] = 2;
        assert_eq!(
            Network::from_bytes(&unknown),
            Err(NetworkError::UnknownLayout(2))
        );
        assert_eq!(
            Network::from_bytes(&bytes[..HEADER_BYTES_V3 - 1]),
            Err(NetworkError::TooShort {
                length: HEADER_BYTES_V3 - 1
            })
        );
        // A version 3 file may say plain inputs: the same net as version 2.
        let plain = random_network(16, 8, 4);
        let mut v3 = plain.to_bytes();
        v3[4] = 3;
        v3.splice(HEADER_BYTES..HEADER_BYTES, 0u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&v3), Ok(plain));
    }

    #[test]
    fn a_network_survives_its_file_and_wrong_files_are_refused_clearly() {
        // Eight buckets make a version 2 file, one bucket a version 1 file.
        let bucketed = random_network(16, 8, 12);
        let bytes = bucketed.to_bytes();
        assert_eq!(bytes.len(), file_bytes(16, 8, InputLayout::Plain));
        assert_eq!(bytes[4], 2);
        assert_eq!(Network::from_bytes(&bytes), Ok(bucketed));
        assert_eq!(
            Network::from_bytes(&bytes[..HEADER_BYTES - 1]),
            Err(NetworkError::TooShort {
                length: HEADER_BYTES - 1
            })
        );
        let mut no_buckets = bytes.clone();
        no_buckets[24..28].fill(0);
        assert_eq!(
            Network::from_bytes(&no_buckets),
            Err(NetworkError::BadBucketCount(0))
        );
        no_buckets[24] = 17;
        assert_eq!(
            Network::from_bytes(&no_buckets),
            Err(NetworkError::BadBucketCount(17))
        );

        let net = random_network(16, 1, 11);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(16, 1, InputLayout::Plain));
        assert_eq!(bytes[4], 1);
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        // The same net written as version 2 (a bucket count of one) reads the same.
        let mut v2 = bytes.clone();
        v2[4] = 2;
        v2.splice(HEADER_BYTES_V1..HEADER_BYTES_V1, 1u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&v2), Ok(net.clone()));

        let refused = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            edit(&mut b);
            Network::from_bytes(&b).expect_err("refused")
        };
        assert_eq!(
            refused(&|b| b.truncate(10)),
            NetworkError::TooShort { length: 10 }
        );
        assert!(matches!(
            refused(&|b| b[0] = b'X'),
            NetworkError::BadMagic(_)
        ));
        assert_eq!(refused(&|b| b[4] = 9), NetworkError::UnsupportedVersion(9));
        assert_eq!(refused(&|b| b[8] = 17), NetworkError::BadHiddenSize(17));
        assert_eq!(
            refused(&|b| b[12..16].copy_from_slice(&0u32.to_le_bytes())),
            NetworkError::BadQuantisation { qa: 0, qb: 64 }
        );
        assert_eq!(refused(&|b| b[20..24].fill(0)), NetworkError::BadScale(0));
        assert!(matches!(
            refused(&|b| {
                b.pop();
            }),
            NetworkError::WrongLength { .. }
        ));
        // The first output weight set to 200: 200 * 255 does not fit an i16.
        let first_output = HEADER_BYTES_V1 + 2 * (INPUTS * 16 + 16);
        assert_eq!(
            refused(&|b| b[first_output..first_output + 2].copy_from_slice(&200i16.to_le_bytes())),
            NetworkError::OutputWeightTooLarge {
                index: 0,
                value: 200
            }
        );
        let message = refused(&|b| b[0] = b'X').to_string();
        assert!(message.contains("not a Threefold network"), "{message}");
    }

    /// With every output weight zero, a network's score is its bucket's bias: each bucket's
    /// bias here names the bucket, so the score shows which bucket a position used.
    #[test]
    fn each_position_is_scored_by_the_bucket_of_its_piece_count() {
        let (hidden, buckets) = (16, 8);
        let mut parts = NetworkParts {
            hidden,
            buckets,
            layout: InputLayout::Plain,
            qa: DEFAULT_QA,
            qb: DEFAULT_QB,
            scale: 400,
            feature_weights: vec![1; INPUTS * hidden],
            feature_biases: vec![0; hidden],
            output_weights: vec![0; 2 * hidden * buckets],
            output_biases: Vec::new(),
        };
        // Bucket b's bias makes 100 b + 10 centipawns: bias * 400 / (255 * 64).
        let q = i32::from(DEFAULT_QA) * i32::from(DEFAULT_QB);
        parts.output_biases = (0..8).map(|b| (100 * b + 10) * q / 400).collect();
        let net = Network::from_parts(parts).expect("valid parts");
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                7,
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
            ("4k3/8/8/8/8/8/8/R1B1K3 b - - 0 1", 0),
            ("4k3/pp6/8/8/8/8/PP6/R1B1K3 w - - 0 1", 1),
            ("r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", 2),
        ];
        for (fen, bucket) in cases {
            let pos = parse_fen(fen).expect("legal");
            let count = pos.board().occupied().count();
            assert_eq!(net.bucket(count), bucket, "{fen}");
            let score = evaluate_position(&net, &pos);
            assert!(
                (score - (100 * bucket as i32 + 10)).abs() <= 1,
                "{fen}: {score} for bucket {bucket}"
            );
        }
    }
}
