// The API reference page: renders the OpenAPI description (/api/openapi.json) as HTML.
// No framework and no CDN: paths, methods, parameters, request bodies and responses,
// with each schema resolved one level and shown as JSON.
(function () {
  "use strict";
  const root = document.getElementById("api-docs");
  if (!root) return;

  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function resolve(spec, schema) {
    if (schema && schema.$ref) {
      const path = schema.$ref.replace(/^#\//, "").split("/");
      let node = spec;
      for (const part of path) node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
      return node;
    }
    return schema;
  }

  function render(spec) {
    root.appendChild(el("h2", spec.info.title + " " + spec.info.version));
    if (spec.info.description) root.appendChild(el("p", spec.info.description));
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === "parameters") continue;
        const box = el("section", undefined, "endpoint");
        const head = el("h3");
        head.appendChild(el("code", method.toUpperCase(), "method"));
        head.appendChild(el("code", path));
        box.appendChild(head);
        if (op.summary) box.appendChild(el("p", op.summary));
        if (op.description) box.appendChild(el("p", op.description, "muted"));
        const params = (item.parameters || []).concat(op.parameters || []);
        if (params.length) {
          const ul = el("ul");
          for (const p of params) ul.appendChild(el("li", p.name + " (" + p.in + "): " + (p.description || "")));
          box.appendChild(ul);
        }
        if (op.requestBody) {
          box.appendChild(el("h4", "Request body"));
          const schema = resolve(spec, op.requestBody.content["application/json"].schema);
          box.appendChild(el("pre", JSON.stringify(schema, null, 1)));
        }
        for (const [status, response] of Object.entries(op.responses || {})) {
          const r = resolve(spec, response);
          box.appendChild(el("h4", status + " " + (r.description || "")));
          const content = r.content && r.content["application/json"];
          if (content) box.appendChild(el("pre", JSON.stringify(resolve(spec, content.schema), null, 1)));
        }
        root.appendChild(box);
      }
    }
    root.appendChild(el("h2", "Schemas"));
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      root.appendChild(el("h3", name));
      root.appendChild(el("pre", JSON.stringify(schema, null, 1)));
    }
  }

  fetch(root.dataset.specUrl, { headers: { Accept: "application/json" } })
    .then(function (r) { return r.json(); })
    .then(render)
    .catch(function (e) { root.appendChild(el("p", String(e))); });
})();
