// The server's JSON API: every error comes back as {"error": {"code", "message"}}.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** fetch JSON; throws ApiError with the server's message when the answer is not 2xx. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { Accept: "application/json", ...(options.headers || {}) } };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.json);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError("network", `the server did not answer (${err.message}); is parlour serve running?`, 0);
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const e = (body && body.error) || {};
    throw new ApiError(e.code || "http", e.message || `${res.status} ${res.statusText}`, res.status);
  }
  return body;
}
