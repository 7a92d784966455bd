interface ErrorShape {
  message: string;
  type: string;
  code: string | null;
}

const shape = (message: string, type: string, code: string | null = null): ErrorShape => ({ message, type, code });

const byStatus: Record<number, (model: string) => ErrorShape> = {
  400: () => shape('Invalid request (scripted fault).', 'invalid_request_error'),
  401: () => shape('Invalid authentication (scripted fault).', 'invalid_request_error', 'invalid_api_key'),
  403: () => shape('You are not allowed to use this model (scripted fault).', 'invalid_request_error'),
  404: (model) => {
    const message = `The model \`${model}\` does not exist or you do not have access to it.`;
    return shape(message, 'invalid_request_error', 'model_not_found');
  },
  408: () => shape('Request timed out (scripted fault).', 'timeout'),
  409: () => shape('Conflict with a concurrent request (scripted fault).', 'conflict'),
  429: () => shape('Rate limit reached for requests (scripted fault).', 'requests', 'rate_limit_exceeded'),
  500: () => shape('The server had an error while processing your request (scripted fault).', 'server_error'),
  503: () => shape('The engine is currently overloaded (scripted fault).', 'server_error'),
};

/** An OpenAI-style error body: `{ error: { message, type, param, code } }`. */
export function errorBody(status: number, model: string, message?: string) {
  const base = byStatus[status]?.(model) ?? shape(`Scripted failure (status ${status}).`, 'server_error');
  return { error: { ...base, message: message ?? base.message, param: null } };
}
