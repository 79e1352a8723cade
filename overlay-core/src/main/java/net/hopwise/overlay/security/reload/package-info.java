/**
 * Re-reading a running node's security files: a renewed certificate, an edited trusted-keys list, a
 * newer revocation list, applied when a file changes or on SIGHUP, refused in one line when it does not
 * fit. NodeDaemon and overlay-admin both run it, so that an operator's file is checked, applied and
 * reported the same way whichever program runs the node; only how each program names its settings
 * differs. It calls the security package's public API ({@code SecureLinks}) and nothing else of it.
 */
package net.hopwise.overlay.security.reload;
