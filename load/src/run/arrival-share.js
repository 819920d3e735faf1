'use strict';
// An open loop at a share of what an earlier closed loop of the same run answered a second (a scenario's
// arrivalShareOf: {scenario, share}, suites.js; of several scenarios, the most any answered): the rate is only known once that scenario ended. The open loop's
// schedule has a ceiling (suites.js' MAX_ARRIVAL_RATE) and a floor of one request a second.
const { MAX_ARRIVAL_RATE } = require('../suite/suites');

/**
 * The scenario as it runs, given the summaries of the scenarios before it: with arrivalRate set from its
 * arrivalShareOf and `arrivalFrom` ({scenario, share, requestsPerSecond}) saying where it came from, and
 * `arrivalProblem` when the earlier scenario measured no throughput (the open loop then runs at one a second, and
 * the scenario fails saying why). Any other scenario as it is.
 */
function withArrivalRate(scenario, completed) {
  const of = scenario.arrivalShareOf;
  if (!of) return scenario;
  // Of several, the most any of them answered: the saturation a closed loop found, whichever count of connections.
  const names = [].concat(of.scenario);
  const measured = Math.max(0, ...completed.filter((s) => names.includes(s.name) && typeof s.requestsPerSecond === 'number').map((s) => s.requestsPerSecond));
  const rate = Math.min(MAX_ARRIVAL_RATE, Math.max(1, Math.round(measured * of.share)));
  const arrivalFrom = { scenario: of.scenario, share: of.share, requestsPerSecond: measured };
  const problem = measured > 0 ? null : `${names.join(', ')} answered nothing a second to take a share of: this open loop ran at 1 a second`;
  return Object.assign({}, scenario, { arrivalRate: rate, arrivalFrom }, problem ? { arrivalProblem: problem } : {});
}

module.exports = { withArrivalRate };
