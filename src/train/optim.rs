//! The optimiser (AdamW: Adam with decoupled weight decay) and the learning-rate schedules.

/// AdamW's state: the moving averages of the gradient and of its square, and the step count.
#[derive(Debug, Clone, PartialEq)]
pub struct AdamW {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    pub weight_decay: f32,
    pub steps: u64,
    pub mean: Vec<f32>,
    pub variance: Vec<f32>,
}

impl AdamW {
    pub fn new(parameters: usize, weight_decay: f32) -> AdamW {
        AdamW {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay,
            steps: 0,
            mean: vec![0.0; parameters],
            variance: vec![0.0; parameters],
        }
    }

    /// One step along `grad` (the mean gradient of a batch) at learning rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let correct1 = 1.0 - self.beta1.powi(t);
        let correct2 = 1.0 - self.beta2.powi(t);
        let (b1, b2, eps, decay) = (self.beta1, self.beta2, self.epsilon, self.weight_decay);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.mean)
            .zip(&mut self.variance)
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let m_hat = *m / correct1;
            let v_hat = *v / correct2;
            *p -= lr * (m_hat / (v_hat.sqrt() + eps) + decay * *p);
        }
    }
}

/// How the learning rate falls over the epochs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Schedule {
    /// Multiplied by `gamma` every `every` epochs.
    Step { every: usize, gamma: f32 },
    /// From the base rate down to `end` times it along half a cosine, batch by batch.
    Cosine { end: f32 },
}

impl Schedule {
    /// The rate at `progress` epochs done (fractional within an epoch) of `total`.
    pub fn rate(&self, base: f32, progress: f32, total: usize) -> f32 {
        match *self {
            Schedule::Step { every, gamma } => {
                let drops = (progress as usize) / every.max(1);
                base * gamma.powi(drops.min(i32::MAX as usize) as i32)
            }
            Schedule::Cosine { end } => {
                let t = (progress / total.max(1) as f32).clamp(0.0, 1.0);
                let low = base * end;
                low + (base - low) * 0.5 * (1.0 + (std::f32::consts::PI * t).cos())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_start_at_the_base_rate_and_fall() {
        let step = Schedule::Step {
            every: 2,
            gamma: 0.5,
        };
        assert_eq!(step.rate(1.0, 0.0, 10), 1.0);
        assert_eq!(step.rate(1.0, 1.9, 10), 1.0);
        assert_eq!(step.rate(1.0, 4.0, 10), 0.25);
        let cosine = Schedule::Cosine { end: 0.01 };
        assert!((cosine.rate(1.0, 0.0, 10) - 1.0).abs() < 1e-6);
        assert!((cosine.rate(1.0, 5.0, 10) - 0.505).abs() < 1e-5);
        assert!((cosine.rate(1.0, 10.0, 10) - 0.01).abs() < 1e-6);
    }

    #[test]
    fn adamw_moves_against_the_gradient_and_decays_weights() {
        let mut adam = AdamW::new(2, 0.0);
        let mut params = [1.0, 1.0];
        adam.step(&mut params, &[1.0, -1.0], 0.1);
        // Adam's first step moves each parameter by the rate, against the gradient's sign.
        assert!((params[0] - 0.9).abs() < 1e-5 && (params[1] - 1.1).abs() < 1e-5);
        let mut decaying = AdamW::new(1, 0.5);
        let mut p = [2.0];
        decaying.step(&mut p, &[0.0], 0.1);
        assert!((p[0] - 1.9).abs() < 1e-6, "{}", p[0]);
    }
}
