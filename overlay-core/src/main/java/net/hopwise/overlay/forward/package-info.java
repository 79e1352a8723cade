/**
 * Best-effort forwarding support: splitting messages into datagrams and reassembling them.
 *
 * <p>Intermediate nodes forward fragments independently and never reassemble; only the destination
 * holds fragments, within a memory budget and a timeout, so a lost fragment costs bounded memory for
 * bounded time.
 */
package net.hopwise.overlay.forward;
