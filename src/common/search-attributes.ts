import { defineSearchAttributeKey } from '@temporalio/common';

/** Custom search attributes; the dev server and docker-compose register these names. */
export const AGENT_NAME = defineSearchAttributeKey('AgentName', 'KEYWORD');
export const AGENT_STATUS = defineSearchAttributeKey('AgentStatus', 'KEYWORD');
export const AGENT_TOTAL_TOKENS = defineSearchAttributeKey('AgentTotalTokens', 'INT');
/** Conversations only: the session id, and the messages answered so far. */
export const AGENT_SESSION_ID = defineSearchAttributeKey('AgentSessionId', 'KEYWORD');
export const AGENT_TURNS = defineSearchAttributeKey('AgentTurns', 'INT');
/** Forks only: the workflow id of the run (or conversation) it was forked from. */
export const AGENT_FORK_OF = defineSearchAttributeKey('AgentForkOf', 'KEYWORD');

/** `name=TYPE` pairs as `temporal server start-dev --search-attribute` takes them. */
export const SEARCH_ATTRIBUTE_FLAGS = ['AgentName=Keyword', 'AgentStatus=Keyword', 'AgentTotalTokens=Int', 'AgentSessionId=Keyword', 'AgentTurns=Int', 'AgentForkOf=Keyword'];
