//! An option's cash flows per month and category, holding only the
//! categories some amount went to: a rental touches one or two of the
//! seventeen, an owned fleet nine. A category left out is 0 in every month.

use crate::result::Category;

/// Amounts per month for the categories an option touched, in the scenario
/// currency, and each month's total. Month `m` is the row
/// `cells[m × (n + 1) .. (m + 1) × (n + 1)]`: its `n` amounts, the
/// categories in [`Category::ALL`] order, then their sum.
#[derive(Debug, Clone, PartialEq)]
pub struct Monthly {
    /// Bit `c` set: category `c` is held.
    held: u32,
    months: usize,
    cells: Vec<f64>,
}

/// One month of a [`Monthly`].
#[derive(Debug, Clone, Copy)]
pub struct Month<'a> {
    held: u32,
    amounts: &'a [f64],
    total: f64,
}

impl Monthly {
    /// `months` months, every category 0.
    pub fn zeros(months: usize) -> Self {
        Monthly { held: 0, months, cells: vec![0.0; months] }
    }

    /// The categories of `held` (bits by [`Category::index`]) from a table
    /// of every category: `dense[m][c]`.
    pub(crate) fn from_dense(dense: &[[f64; Category::COUNT]], held: u32) -> Self {
        let mut indices = [0; Category::COUNT];
        let mut n = 0;
        for (slot, c) in indices.iter_mut().zip(held_indices(held)) {
            *slot = c;
            n += 1;
        }
        let held_ones = &indices[..n];
        let mut cells = vec![0.0; dense.len() * (n + 1)];
        for (row, month) in cells.chunks_exact_mut(n + 1).zip(dense) {
            for (cell, &c) in row.iter_mut().zip(held_ones) {
                *cell = month[c];
            }
        }
        // Each month's total from +0.0, category by category in order (as
        // `sum` adds them), every month at once: the months' sums do not wait
        // on one another.
        for &c in held_ones {
            for (row, month) in cells.chunks_exact_mut(n + 1).zip(dense) {
                row[n] += month[c];
            }
        }
        debug_assert!(cells.chunks_exact(n + 1).all(|row| row[n].to_bits() == sum(&row[..n]).to_bits()));
        Monthly { held, months: dense.len(), cells }
    }

    /// Cells in a month's row: the held categories and the total.
    fn width(&self) -> usize {
        self.held.count_ones() as usize + 1
    }

    /// The number of months.
    pub fn len(&self) -> usize {
        self.months
    }

    /// Whether there are no months.
    pub fn is_empty(&self) -> bool {
        self.months == 0
    }

    /// Month `m` (0 = the first). Panics past the last month, as indexing does.
    pub fn month(&self, m: usize) -> Month<'_> {
        assert!(m < self.months, "month {m} of {}", self.months);
        let width = self.width();
        let row = &self.cells[m * width..(m + 1) * width];
        Month { held: self.held, amounts: &row[..width - 1], total: row[width - 1] }
    }

    /// Every month, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Month<'_>> + DoubleEndedIterator + Clone {
        (0..self.months).map(|m| self.month(m))
    }

    /// Every figure held: each month's amounts and its total.
    pub(crate) fn cells(&self) -> &[f64] {
        &self.cells
    }

    /// Each month's total, in order.
    pub fn totals(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        let width = self.width();
        self.cells.chunks_exact(width).map(|row| row[row.len() - 1])
    }

    /// Each month's amounts of the held categories ([`Monthly::categories`],
    /// in that order), its total left out.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[f64]> {
        let width = self.width();
        self.cells.chunks_exact(width).map(|row| &row[..row.len() - 1])
    }

    /// Nominal total, NPV (each month's total × its discount factor) and the
    /// compute categories' total ([`Category::is_compute`]), in one pass.
    pub(crate) fn totals_and_compute(&self, discount: &[f64]) -> (f64, f64, f64) {
        // The sums start where `Iterator::sum` starts.
        let zero: f64 = std::iter::empty::<f64>().sum();
        let (mut nominal, mut npv, mut compute) = (zero, zero, zero);
        if self.categories().all(Category::is_compute) {
            for (total, d) in self.totals().zip(discount) {
                nominal += total;
                npv += total * d;
            }
            return (nominal, npv, nominal);
        }
        for (month, d) in self.iter().zip(discount) {
            nominal += month.total;
            npv += month.total * d;
            compute += month.compute_total();
        }
        (nominal, npv, compute)
    }

    /// The categories that hold an amount in some month's table (possibly 0).
    pub fn categories(&self) -> impl Iterator<Item = Category> + '_ {
        held_indices(self.held).map(|i| Category::ALL[i])
    }

    /// Adds `amount` to a category in month `m`, making room for the category if needed.
    pub fn add(&mut self, m: usize, category: Category, amount: f64) {
        let bit = 1 << category.index();
        if self.held & bit == 0 {
            let held = self.held | bit;
            let mut dense = vec![[0.0; Category::COUNT]; self.months];
            for (row, month) in dense.iter_mut().zip(self.iter()) {
                for (c, x) in month.amounts() {
                    row[c.index()] = x;
                }
            }
            *self = Monthly::from_dense(&dense, held);
        }
        let width = self.width();
        let row = &mut self.cells[m * width..(m + 1) * width];
        row[slot(self.held, category)] += amount;
        row[width - 1] = sum(&row[..width - 1]);
    }
}

/// A month's amounts summed in order from +0.0. A category left out is
/// +0.0, and adding +0.0 changes no sum but −0.0, which a sum from +0.0
/// never is: the same bits as a sum over all seventeen.
fn sum(amounts: &[f64]) -> f64 {
    amounts.iter().fold(0.0, |acc, x| acc + x)
}

impl<'a> Month<'a> {
    /// The amount in a category.
    pub fn get(&self, category: Category) -> f64 {
        if self.held >> category.index() & 1 == 1 { self.amounts[slot(self.held, category)] } else { 0.0 }
    }

    /// The categories held and their amounts, in [`Category::ALL`] order.
    pub fn amounts(&self) -> impl Iterator<Item = (Category, f64)> + 'a {
        held_indices(self.held).map(|i| Category::ALL[i]).zip(self.amounts.iter().copied())
    }

    /// The sum over every category.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// The sum over the compute categories ([`Category::is_compute`]).
    pub fn compute_total(&self) -> f64 {
        self.amounts().filter(|(c, _)| c.is_compute()).fold(0.0, |acc, (_, x)| acc + x)
    }
}

/// Where `category` sits among the held ones.
fn slot(held: u32, category: Category) -> usize {
    (held & ((1 << category.index()) - 1)).count_ones() as usize
}

/// The indices of the held categories, ascending.
fn held_indices(held: u32) -> impl Iterator<Item = usize> + Clone {
    let mut bits = held;
    std::iter::from_fn(move || {
        let i = bits.trailing_zeros() as usize;
        bits &= bits.wrapping_sub(1);
        (i < Category::COUNT).then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_only_the_categories_given_and_reads_zero_for_the_rest() {
        let mut dense = vec![[0.0; Category::COUNT]; 3];
        dense[0][Category::Hardware.index()] = 100.0;
        dense[1][Category::OnDemand.index()] = 7.5;
        dense[2][Category::OnDemand.index()] = 2.5;
        let held = 1 << Category::Hardware.index() | 1 << Category::OnDemand.index();
        let t = Monthly::from_dense(&dense, held);
        assert_eq!(t.len(), 3);
        assert_eq!(t.categories().collect::<Vec<_>>(), [Category::Hardware, Category::OnDemand]);
        assert_eq!(t.month(0).get(Category::Hardware), 100.0);
        assert_eq!(t.month(1).get(Category::OnDemand), 7.5);
        assert_eq!(t.month(1).get(Category::Spot), 0.0);
        assert_eq!(t.iter().map(|m| m.total()).collect::<Vec<_>>(), [100.0, 7.5, 2.5]);
        assert_eq!(t.month(0).compute_total(), 100.0);
    }

    #[test]
    fn a_new_category_keeps_the_amounts_already_there() {
        let mut t = Monthly::zeros(2);
        assert_eq!(t.month(1).total().to_bits(), 0.0f64.to_bits());
        t.add(1, Category::Spot, 3.0);
        t.add(0, Category::Hardware, 10.0);
        t.add(1, Category::Storage, 1.0);
        assert_eq!(t.month(0).get(Category::Hardware), 10.0);
        assert_eq!(t.month(1).get(Category::Spot), 3.0);
        assert_eq!(t.month(1).total(), 4.0);
        assert_eq!(t.month(1).compute_total(), 3.0, "storage is not compute");
    }

    #[test]
    #[should_panic(expected = "month 2 of 2")]
    fn a_month_past_the_last_is_refused() {
        Monthly::zeros(2).month(2);
    }
}
