// SPDX-License-Identifier: MIT
#include "tests/core/leastsquares.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kvscope::validation {

namespace {

/// Unconstrained least squares on the columns in `set` (modified Gram-Schmidt
/// QR); the other entries of the result are 0.
std::vector<double> solveOn(const Matrix &a, const std::vector<double> &b, const std::vector<int> &set,
                            std::size_t columns)
{
    const std::size_t m = a.size(), k = set.size();
    std::vector<std::vector<double>> q(k, std::vector<double>(m));
    std::vector<std::vector<double>> r(k, std::vector<double>(k, 0.0));
    for (std::size_t j = 0; j < k; ++j)
        for (std::size_t i = 0; i < m; ++i)
            q[j][i] = a[i][std::size_t(set[j])];
    for (std::size_t j = 0; j < k; ++j) {
        for (std::size_t p = 0; p < j; ++p) {
            const double dot = std::inner_product(q[p].begin(), q[p].end(), q[j].begin(), 0.0);
            r[p][j] = dot;
            for (std::size_t i = 0; i < m; ++i)
                q[j][i] -= dot * q[p][i];
        }
        r[j][j] = std::sqrt(std::inner_product(q[j].begin(), q[j].end(), q[j].begin(), 0.0));
        if (r[j][j] > 0)
            for (double &v : q[j])
                v /= r[j][j];
    }
    std::vector<double> y(k), z(columns, 0.0);
    for (std::size_t j = 0; j < k; ++j)
        y[j] = std::inner_product(q[j].begin(), q[j].end(), b.begin(), 0.0);
    for (std::size_t j = k; j-- > 0;) {
        double sum = y[j];
        for (std::size_t p = j + 1; p < k; ++p)
            sum -= r[j][p] * z[std::size_t(set[p])];
        z[std::size_t(set[j])] = r[j][j] > 0 ? sum / r[j][j] : 0.0;
    }
    return z;
}

std::vector<double> residual(const Matrix &a, const std::vector<double> &b, const std::vector<double> &x)
{
    std::vector<double> r = b;
    for (std::size_t i = 0; i < a.size(); ++i)
        r[i] -= std::inner_product(a[i].begin(), a[i].end(), x.begin(), 0.0);
    return r;
}

/// Lawson-Hanson: x >= 0 minimising |A x - b|.
std::vector<double> nonNegativeLeastSquares(const Matrix &a, const std::vector<double> &b)
{
    const std::size_t n = a.empty() ? 0 : a.front().size();
    std::vector<double> x(n, 0.0);
    std::vector<bool> passive(n, false);
    constexpr double tolerance = 1e-12;
    for (std::size_t iteration = 0; iteration < 30 * n + 30; ++iteration) {
        const std::vector<double> r = residual(a, b, x);
        int best = -1;
        double bestGradient = tolerance;
        for (std::size_t j = 0; j < n; ++j) {
            if (passive[j])
                continue;
            double gradient = 0;
            for (std::size_t i = 0; i < a.size(); ++i)
                gradient += a[i][j] * r[i];
            if (gradient > bestGradient)
                bestGradient = gradient, best = int(j);
        }
        if (best < 0)
            break;
        passive[std::size_t(best)] = true;
        for (;;) {
            std::vector<int> set;
            for (std::size_t j = 0; j < n; ++j)
                if (passive[j])
                    set.push_back(int(j));
            const std::vector<double> z = solveOn(a, b, set, n);
            double alpha = 1;
            bool feasible = true;
            for (const int j : set)
                if (z[std::size_t(j)] <= tolerance) {
                    feasible = false;
                    const double xj = x[std::size_t(j)];
                    alpha = std::min(alpha, xj / (xj - z[std::size_t(j)]));
                }
            if (feasible) {
                x = z;
                break;
            }
            for (std::size_t j = 0; j < n; ++j) {
                x[j] += alpha * (z[j] - x[j]);
                if (passive[j] && x[j] <= tolerance)
                    passive[j] = false, x[j] = 0;
            }
        }
    }
    return x;
}

} // namespace

std::vector<double> boundedLeastSquares(const Matrix &a, const std::vector<double> &b,
                                        const std::vector<double> &lower)
{
    const std::size_t n = lower.size();
    // Unit-norm columns: the solution is the same up to the scale.
    std::vector<double> norm(n, 0.0);
    for (const std::vector<double> &row : a)
        for (std::size_t j = 0; j < n; ++j)
            norm[j] += row[j] * row[j];
    for (double &v : norm)
        v = std::sqrt(v);
    Matrix scaled = a;
    std::vector<double> shifted = b;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < n; ++j) {
            shifted[i] -= a[i][j] * lower[j];
            scaled[i][j] = norm[j] > 0 ? a[i][j] / norm[j] : 0.0;
        }
    std::vector<double> x = nonNegativeLeastSquares(scaled, shifted);
    for (std::size_t j = 0; j < n; ++j)
        x[j] = lower[j] + (norm[j] > 0 ? x[j] / norm[j] : 0.0);
    return x;
}

} // namespace kvscope::validation
