/**
 * The SIP-aware relay: unmodified SIP phones place calls whose RTP crosses the overlay.
 *
 * <p>A {@link net.hopwise.voip.relay.SipRelay} runs beside an overlay node. Its phones send SIP to it
 * (UDP or TCP); it is their registrar and a record-routing, transaction-stateful proxy
 * ({@link net.hopwise.voip.relay.SipProxy}) whose next hop is a phone of its site or the relay of
 * another node, reached over a reliable overlay session. Each relay rewrites only the SDP facing its
 * own phones, so that a phone always sends media to its own relay; the overlay ports where each relay
 * takes a stream travel beside the SIP message in a {@link net.hopwise.voip.relay.RelayEnvelope},
 * never inside it. RTP and RTCP pass byte for byte over one real-time overlay flow per stream and
 * direction, latched to where the phone really sends from, de-duplicated and cut at a deadline at the
 * egress, and metered per call ({@link net.hopwise.voip.relay.CallStatistics}, with an E-model
 * estimate), each call's quality going to the node's meters when it ends and, where the configuration
 * names a file, its record to that file as a line of JSON written off the relay's loop. Each relay publishes the addresses of record its phones registered as a link-state
 * record of its node ({@link net.hopwise.voip.relay.RegistrationDirectory}), so any relay routes a
 * call to the site where the callee registered without a dial-plan rule.
 *
 * <p>Everything but {@code SipRelay} and {@code RelayMedia} is sans-IO: messages, packets and the time
 * come in as arguments, output goes to {@link net.hopwise.voip.relay.SignalIo} and
 * {@link net.hopwise.voip.relay.MediaIo}, and the tests drive it on virtual time. The IO shell runs
 * all of a relay's state on one event loop of its own and hands the overlay's callbacks to it.
 */
package net.hopwise.voip.relay;
