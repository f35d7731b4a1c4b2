"use strict";
// The page's one way to the server: JSON in, JSON out; a refusal's message is shown as the server wrote it.

let maxUpload = 8 * 1024 * 1024; // the server's limit (serve --max-upload-mb), from /api/info

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body === undefined && method === "POST") body = {}; // the server takes only JSON bodies
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch("/api/" + path, init);
  } catch (err) {
    throw new ApiError("the server cannot be reached (" + err.message + ")", 0);
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new ApiError("the server sent no JSON (status " + response.status + ")", response.status);
  }
  if (!response.ok) {
    throw new ApiError(data.error || "status " + response.status, response.status);
  }
  return data;
}

function showError(message) {
  const box = document.getElementById("error");
  document.getElementById("error-text").textContent = message;
  box.hidden = false;
}

function clearError() {
  document.getElementById("error").hidden = true;
}

// Runs an async action; any failure lands in the error banner (and the promise resolves to undefined).
async function guarded(action) {
  try {
    clearError();
    return await action();
  } catch (err) {
    showError(err.message || String(err));
    return undefined;
  }
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.style.cssText = value; // CSSOM: allowed by the page's CSP
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function signed(x, digits) {
  if (x === null || x === undefined) return "—";
  const text = Number(x).toFixed(digits === undefined ? 2 : digits);
  return x > 0 ? "+" + text : text;
}
