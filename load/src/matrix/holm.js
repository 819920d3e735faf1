'use strict';
// Holm's step-down correction for many comparisons at once. A matrix of 40 scenarios × 4 versions × 2 figures asks 320
// questions: at a 5 % level, about 16 would come out "significant" by chance alone. Holm keeps the chance of even one
// false finding at alpha over the whole family, and never finds less than Bonferroni does.

/** Holm-adjusted p-values, in the order of ps (null stays null and is not counted). */
function holmAdjusted(ps) {
  const order = ps.map((p, i) => ({ p, i })).filter((x) => x.p !== null).sort((a, b) => a.p - b.p);
  const m = order.length;
  const adjusted = ps.map(() => null);
  let running = 0;
  order.forEach(({ p, i }, k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

module.exports = { holmAdjusted };
