/**
 * The Hopwise admin service: a Spring Boot application that runs one overlay node per machine (or,
 * with nothing configured, an in-process demo overlay) and lets operators see and steer it.
 *
 * <p>Only this module knows Spring. The overlay itself is the core's {@code OverlayNode}; the service
 * binds {@code hopwise.*} settings to the core's configuration types ({@code config}), reads the
 * overlay from its node's link-state database on the node's event loop ({@code overlay}), serves
 * that as a REST API with an OpenAPI description and a server-sent event stream ({@code api}), guards
 * changes with operator credentials ({@code security}), and serves a dashboard from the jar
 * ({@code static/}: d3 from a webjar, no network needed).
 */
package net.hopwise.admin;
