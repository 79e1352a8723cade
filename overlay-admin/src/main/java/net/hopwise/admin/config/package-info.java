/**
 * The service's settings: {@code hopwise.node.*} for the node, {@code hopwise.demo.*} for the demo
 * overlay, {@code hopwise.admin.*} for sampling and security.
 *
 * <p>Node settings are nullable and unset by default, so the core's builders keep the one
 * declaration of each default; the core's own checks validate them, each value tried alone first so
 * that every bad value is reported with the property that holds it, and a failure analyzer prints
 * that list instead of a stack trace.
 */
package net.hopwise.admin.config;
