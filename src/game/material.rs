//! Dead positions by material: neither side can ever mate (FIDE 9.6.2 / 5.2.2).

use shakmaty::{Chess, Position};

/// True when no sequence of legal moves can end in mate because of the material left
/// (K v K, K+minor v K, K+B v K+B with bishops on one colour).
pub fn is_dead_by_material(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}
