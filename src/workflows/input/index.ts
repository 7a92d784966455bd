/**
 * What comes into a run from outside (signals, updates, queries): parsed by a schema before use,
 * refused with a reason when it does not fit.
 */
export { acceptedPayload, acceptedRequest, parseInput, validated } from './parse-input';
export { callIdOf } from './reject-input';
