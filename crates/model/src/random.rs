//! Random numbers for the Monte Carlo, written here so that a seed gives
//! the same draws on every machine, in every version of every dependency:
//! SplitMix64 for seeding, xoshiro256** for the stream, and inverse-CDF or
//! textbook samplers for the distributions.

use crate::scenario::Distribution;

/// xoshiro256** (Blackman & Vigna), seeded through SplitMix64.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded with `seed` through SplitMix64.
    pub fn seed(seed: u64) -> Rng {
        let mut state = seed;
        Rng { s: [splitmix64(&mut state), splitmix64(&mut state), splitmix64(&mut state), splitmix64(&mut state)] }
    }

    /// An independent stream for chunk `index` of a run seeded with `seed`.
    pub fn stream(seed: u64, index: u64) -> Rng {
        let mut state = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Rng::seed(splitmix64(&mut state))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in (0, 1): never 0, for logarithms.
    fn open01(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box–Muller; one of the pair is used, for simplicity
    /// and for a fixed number of draws per sample).
    pub fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.open01(), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// Gamma(shape, 1) by Marsaglia and Tsang (shape ≥ 1; boosted below).
    fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            let u = self.open01();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = self.open01();
            // Their squeeze first: it implies the test after it (so it accepts
            // no other draw) and spares the two logarithms for most draws.
            let x2 = x * x;
            if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    fn beta(&mut self, a: f64, b: f64) -> f64 {
        let x = self.gamma(a);
        let y = self.gamma(b);
        x / (x + y)
    }
}

/// z of the standard normal's 90th percentile.
const Z90: f64 = 1.281_551_565_544_600_4;

impl Distribution {
    /// One draw from the distribution.
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        match *self {
            Distribution::Uniform { low, high } => low + (high - low) * rng.uniform(),
            Distribution::Triangular { low, mode, high } => {
                if high <= low {
                    return low;
                }
                let u = rng.uniform();
                let f = (mode - low) / (high - low);
                if u < f {
                    low + ((high - low) * (mode - low) * u).sqrt()
                } else {
                    high - ((high - low) * (high - mode) * (1.0 - u)).sqrt()
                }
            }
            Distribution::Pert { low, mode, high } => {
                if high <= low {
                    return low;
                }
                let a = 1.0 + 4.0 * (mode - low) / (high - low);
                let b = 1.0 + 4.0 * (high - mode) / (high - low);
                low + (high - low) * rng.beta(a, b)
            }
            Distribution::Lognormal { median, p90 } => {
                let sigma = (p90 / median).ln() / Z90;
                median * (sigma * rng.normal()).exp()
            }
            Distribution::Bernoulli { probability } => f64::from(u8::from(rng.uniform() < probability)),
        }
    }

    /// The value a point estimate uses: the mode, median or probability-weighted value.
    pub fn base(&self) -> f64 {
        match *self {
            Distribution::Uniform { low, high } => (low + high) / 2.0,
            Distribution::Triangular { mode, .. } | Distribution::Pert { mode, .. } => mode,
            Distribution::Lognormal { median, .. } => median,
            Distribution::Bernoulli { .. } => 0.0,
        }
    }

    /// Low and high ends for a tornado: the range ends, or P10/P90.
    pub fn low_high(&self) -> (f64, f64) {
        match *self {
            Distribution::Uniform { low, high }
            | Distribution::Triangular { low, high, .. }
            | Distribution::Pert { low, high, .. } => (low, high),
            Distribution::Lognormal { median, p90 } => (median * median / p90, p90),
            Distribution::Bernoulli { .. } => (0.0, 1.0),
        }
    }

    /// Mean of the distribution (for tests and reports).
    pub fn mean(&self) -> f64 {
        match *self {
            Distribution::Uniform { low, high } => (low + high) / 2.0,
            Distribution::Triangular { low, mode, high } => (low + mode + high) / 3.0,
            Distribution::Pert { low, mode, high } => (low + 4.0 * mode + high) / 6.0,
            Distribution::Lognormal { median, p90 } => {
                let sigma = (p90 / median).ln() / Z90;
                median * (sigma * sigma / 2.0).exp()
            }
            Distribution::Bernoulli { probability } => probability,
        }
    }

    /// What is wrong with the parameters, if anything.
    pub fn problem(&self) -> Option<(&'static str, f64, crate::Rule)> {
        use crate::Rule;
        let finite = |name, x: f64| (!x.is_finite()).then_some((name, x, Rule::NotFinite));
        match *self {
            Distribution::Uniform { low, high } => finite("low", low)
                .or(finite("high", high))
                .or((low > high).then_some(("high", high, Rule::AtLeast { min: low }))),
            Distribution::Triangular { low, mode, high } | Distribution::Pert { low, mode, high } => finite("low", low)
                .or(finite("mode", mode))
                .or(finite("high", high))
                .or((low > high).then_some(("high", high, Rule::AtLeast { min: low })))
                .or((mode < low || mode > high).then_some(("mode", mode, Rule::Between { min: low, max: high }))),
            Distribution::Lognormal { median, p90 } => finite("median", median)
                .or(finite("p90", p90))
                .or((median <= 0.0).then_some(("median", median, Rule::NotPositive)))
                .or((p90 < median).then_some(("p90", p90, Rule::AtLeast { min: median }))),
            Distribution::Bernoulli { probability } => finite("probability", probability)
                .or((!(0.0..=1.0).contains(&probability)).then_some(("probability", probability, Rule::Share))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_mean(d: Distribution, n: usize) -> f64 {
        let mut rng = Rng::seed(7);
        (0..n).map(|_| d.sample(&mut rng)).sum::<f64>() / n as f64
    }

    #[test]
    fn the_same_seed_gives_the_same_draws() {
        let (mut a, mut b) = (Rng::seed(42), Rng::seed(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::stream(42, 0).next_u64(), Rng::stream(42, 1).next_u64());
    }

    #[test]
    fn sample_means_match_the_known_means() {
        // Triangular(1, 2, 6): mean (1 + 2 + 6) / 3 = 3.
        assert!((sample_mean(Distribution::Triangular { low: 1.0, mode: 2.0, high: 6.0 }, 200_000) - 3.0).abs() < 0.01);
        // PERT(1, 2, 6): (1 + 4·2 + 6) / 6 = 2.5.
        assert!((sample_mean(Distribution::Pert { low: 1.0, mode: 2.0, high: 6.0 }, 200_000) - 2.5).abs() < 0.01);
        // Log-normal, median 1, P90 e^1.2816 → σ = 1: mean e^0.5 = 1.6487.
        let d = Distribution::Lognormal { median: 1.0, p90: Z90.exp() };
        assert!((sample_mean(d, 400_000) - 0.5f64.exp()).abs() < 0.02);
        assert!((sample_mean(Distribution::Bernoulli { probability: 0.3 }, 200_000) - 0.3).abs() < 0.005);
    }

    #[test]
    fn bad_parameters_are_named() {
        assert!(Distribution::Triangular { low: 5.0, mode: 4.0, high: 3.0 }.problem().is_some());
        assert!(Distribution::Lognormal { median: -1.0, p90: 2.0 }.problem().is_some());
        assert!(Distribution::Bernoulli { probability: 1.5 }.problem().is_some());
        assert!(Distribution::Pert { low: 1.0, mode: 2.0, high: 3.0 }.problem().is_none());
    }
}
