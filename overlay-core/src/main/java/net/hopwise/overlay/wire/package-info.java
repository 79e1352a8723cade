/**
 * The Hopwise wire format: one versioned fixed header for every datagram, then a body per packet type.
 *
 * <p>Everything is in network byte order. Decoding is total: a received datagram is first checked by
 * {@link net.hopwise.overlay.wire.WireHeader#check} and every problem maps to one
 * {@link net.hopwise.overlay.wire.DropReason}, which the node counts; nothing a peer sends can make
 * a decoder throw or leak a buffer. Headers are read and rewritten at absolute offsets so a
 * forwarding node re-stamps a packet in place instead of decoding and re-encoding it. Bodies of the
 * control protocols are encoded by the codec of the package that owns them (link, routing).
 */
package net.hopwise.overlay.wire;
