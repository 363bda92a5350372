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

    /// Standard normal, by Marsaglia and Tsang's ziggurat (256 layers): one
    /// 64-bit draw, a multiply and a comparison for 99 % of normals; a
    /// logarithm or an exponential only for the rest.
    pub fn normal(&mut self) -> f64 {
        let z = &*ZIGGURAT;
        loop {
            let bits = self.next_u64();
            // The low 8 bits pick the layer; the top 53 a point across it, in [−1, 1).
            let i = (bits & 0xff) as usize;
            let u = 2.0 * ((bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)) - 1.0;
            let x = u * z.x[i];
            if x.abs() < z.x[i + 1] {
                return x;
            }
            if i == 0 {
                return self.normal_tail(u < 0.0);
            }
            // Between the layer's rectangle and the curve: under the curve or again.
            if z.f[i] + (z.f[i + 1] - z.f[i]) * self.uniform() < (-0.5 * x * x).exp() {
                return x;
            }
        }
    }

    /// A normal beyond the ziggurat's base, |z| > R (Marsaglia's tail method).
    fn normal_tail(&mut self, negative: bool) -> f64 {
        loop {
            let x = -self.open01().ln() / ZIGGURAT_R;
            let y = -self.open01().ln();
            if 2.0 * y >= x * x {
                return if negative { -(ZIGGURAT_R + x) } else { ZIGGURAT_R + x };
            }
        }
    }

    /// Gamma(shape, 1) by Marsaglia and Tsang, with its constants made ([`Gamma::new`]).
    fn gamma(&mut self, g: &Gamma) -> f64 {
        // Below shape 1, Gamma(shape + 1) × U^(1/shape); U drawn first.
        let boost = g.inverse_shape.map(|inverse| self.open01().powf(inverse));
        let Gamma { d, c, .. } = *g;
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
                return boost.map_or(d * v, |b| d * v * b);
            }
        }
    }
}

/// Where the ziggurat's base layer's rectangle ends and the tail begins.
const ZIGGURAT_R: f64 = 3.654_152_885_361_009;
/// The area of each of the ziggurat's 256 layers (the base's with the tail).
const ZIGGURAT_V: f64 = 0.004_928_673_233_992_336;

/// The ziggurat's layers for f(x) = e^(−x²/2): layer `i` is `x[i]` wide
/// (the base's width is its area over f(R)), from height `f[i]` to `f[i + 1]`.
struct Ziggurat {
    x: [f64; 257],
    f: [f64; 257],
}

static ZIGGURAT: std::sync::LazyLock<Ziggurat> = std::sync::LazyLock::new(|| {
    let f = |x: f64| (-0.5 * x * x).exp();
    let mut x = [0.0; 257];
    x[0] = ZIGGURAT_V / f(ZIGGURAT_R);
    x[1] = ZIGGURAT_R;
    for i in 1..255 {
        x[i + 1] = (-2.0 * (ZIGGURAT_V / x[i] + f(x[i])).ln()).sqrt();
    }
    Ziggurat { x, f: x.map(f) }
});

/// What Marsaglia and Tsang's method needs of a shape, made once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Gamma {
    d: f64,
    c: f64,
    /// 1 / shape for a shape below 1 (drawn at shape + 1, then boosted).
    inverse_shape: Option<f64>,
}

impl Gamma {
    fn new(shape: f64) -> Gamma {
        let (boosted, inverse_shape) = if shape < 1.0 { (shape + 1.0, Some(1.0 / shape)) } else { (shape, None) };
        let d = boosted - 1.0 / 3.0;
        Gamma { d, c: 1.0 / (9.0 * d).sqrt(), inverse_shape }
    }
}

/// A distribution with what every draw of it shares worked out once: a
/// simulation makes one per range and draws from it in every trial. The
/// draws are those of [`Distribution::sample`], bit for bit (it draws
/// through one of these).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Sampler {
    /// Always this value (a triangular or PERT range of no width), no draw.
    Constant(f64),
    /// `low + width × U`.
    Uniform { low: f64, width: f64 },
    /// Inverse CDF: below the mode's share `f` of the range, `low + √(rise × U)`, else `high − √(fall × (1 − U))`.
    Triangular { low: f64, high: f64, f: f64, rise: f64, fall: f64 },
    /// `low + width × X / (X + Y)`, X and Y gamma with PERT's shapes.
    Pert { low: f64, width: f64, a: Gamma, b: Gamma },
    /// `median × e^(σ Z)`.
    Lognormal { median: f64, sigma: f64 },
    /// 1 with the probability, else 0.
    Bernoulli { probability: f64 },
}

impl Sampler {
    /// One draw.
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        match *self {
            Sampler::Constant(x) => x,
            Sampler::Uniform { low, width } => low + width * rng.uniform(),
            Sampler::Triangular { low, high, f, rise, fall } => {
                let u = rng.uniform();
                if u < f { low + (rise * u).sqrt() } else { high - (fall * (1.0 - u)).sqrt() }
            }
            Sampler::Pert { low, width, a, b } => {
                let x = rng.gamma(&a);
                let y = rng.gamma(&b);
                low + width * (x / (x + y))
            }
            Sampler::Lognormal { median, sigma } => median * (sigma * rng.normal()).exp(),
            Sampler::Bernoulli { probability } => f64::from(u8::from(rng.uniform() < probability)),
        }
    }
}

/// z of the standard normal's 90th percentile.
const Z90: f64 = 1.281_551_565_544_600_4;

impl Distribution {
    /// One draw from the distribution.
    pub fn sample(&self, rng: &mut Rng) -> f64 {
        self.sampler().sample(rng)
    }

    /// The distribution made ready for many draws.
    pub(crate) fn sampler(&self) -> Sampler {
        match *self {
            Distribution::Uniform { low, high } => Sampler::Uniform { low, width: high - low },
            Distribution::Triangular { low, high, .. } | Distribution::Pert { low, high, .. } if high <= low => {
                Sampler::Constant(low)
            }
            Distribution::Triangular { low, mode, high } => Sampler::Triangular {
                low,
                high,
                f: (mode - low) / (high - low),
                rise: (high - low) * (mode - low),
                fall: (high - low) * (high - mode),
            },
            Distribution::Pert { low, mode, high } => Sampler::Pert {
                low,
                width: high - low,
                a: Gamma::new(1.0 + 4.0 * (mode - low) / (high - low)),
                b: Gamma::new(1.0 + 4.0 * (high - mode) / (high - low)),
            },
            Distribution::Lognormal { median, p90 } => Sampler::Lognormal { median, sigma: (p90 / median).ln() / Z90 },
            Distribution::Bernoulli { probability } => Sampler::Bernoulli { probability },
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
    fn normals_have_mean_zero_variance_one_and_the_normal_tails() {
        let mut rng = Rng::seed(11);
        let n = 400_000;
        let draws: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let variance = draws.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / n as f64;
        let below = |x: f64| draws.iter().filter(|z| **z < x).count() as f64 / n as f64;
        assert!(mean.abs() < 0.005, "mean {mean}");
        assert!((variance - 1.0).abs() < 0.01, "variance {variance}");
        assert!((below(Z90) - 0.9).abs() < 0.002, "P(z < z90) {}", below(Z90));
        assert!((below(-1.959_964) - 0.025).abs() < 0.001, "P(z < -1.96) {}", below(-1.959_964));
        assert!((below(0.0) - 0.5).abs() < 0.003);
        // E z^4 = 3; the tails, within and beyond the ziggurat's base
        // (P(|z| > 3) = 0.0026998, P(z > R) = 0.000129; about three standard errors).
        let kurtosis = draws.iter().map(|z| z.powi(4)).sum::<f64>() / n as f64;
        assert!((kurtosis - 3.0).abs() < 0.06, "E z^4 {kurtosis}");
        let beyond = |x: f64| draws.iter().filter(|z| z.abs() > x).count() as f64 / n as f64;
        assert!((beyond(3.0) - 0.002_699_8).abs() < 0.000_25, "P(|z| > 3) {}", beyond(3.0));
        let far = draws.iter().filter(|z| **z > ZIGGURAT_R).count();
        assert!((30..=75).contains(&far), "{far} draws above R, 52 expected");
        assert!(draws.iter().any(|z| *z < -ZIGGURAT_R));
    }

    #[test]
    fn bad_parameters_are_named() {
        assert!(Distribution::Triangular { low: 5.0, mode: 4.0, high: 3.0 }.problem().is_some());
        assert!(Distribution::Lognormal { median: -1.0, p90: 2.0 }.problem().is_some());
        assert!(Distribution::Bernoulli { probability: 1.5 }.problem().is_some());
        assert!(Distribution::Pert { low: 1.0, mode: 2.0, high: 3.0 }.problem().is_none());
    }
}
