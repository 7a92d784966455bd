// The run's signals, updates and queries a user may call by hand with Temporal's own client (see
// docs/signals.md); AgentRun calls them for you. The others (a sub-agent's report, the paged
// conversation reads, a conversation's messages) are the runtime's own and not exported.
export {
  addInputUpdate,
  approveAllSignal,
  approveSignal,
  decideUpdate,
  delegateUpdate,
  denySignal,
  eventsQuery,
  setGroupsSignal,
  stateQuery,
  submitToolResultSignal,
  submitToolResultUpdate,
  type AddedInput,
  type AddInputRequest,
  type ApproveAllRequest,
  type ApproveRequest,
  type DecideRequest,
  type DelegateRequest,
  type DelegatedCall,
  type DenyRequest,
  type SetGroupsRequest,
  type SubmitToolResultRequest,
} from '../common/definitions';
export { AGENT_FORK_OF, AGENT_NAME, AGENT_SESSION_ID, AGENT_STATUS, AGENT_TOTAL_TOKENS, AGENT_TURNS } from '../common/search-attributes';
