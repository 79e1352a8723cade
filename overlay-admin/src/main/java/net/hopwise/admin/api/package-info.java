/**
 * The REST API under {@code /api}: thin controllers over the overlay views, described by springdoc
 * at {@code /v3/api-docs} with its UI at {@code /swagger-ui.html}. Every refusal is an RFC 7807
 * problem body: a bad value 400, an unknown node or link 404, a link this instance cannot impair
 * 409, something the core cannot do yet 501.
 */
package net.hopwise.admin.api;
