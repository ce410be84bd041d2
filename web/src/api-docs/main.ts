// The browsable API reference at /api/docs: Swagger UI, bundled from npm by this build
// and served by Encore itself, reading the document the server generates. Nothing is
// fetched from another origin (no CDN, no validator badge).
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';

SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#api-docs',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
