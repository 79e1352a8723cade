/**
 * Benchmark programs for the SIP relay, run by the scripts in {@code overlay-voip/bench/} and never by
 * the test suite: a relay process that totals its calls' media counters ({@link
 * net.hopwise.voip.bench.BenchRelay}), an analyser of packet captures of the phones' RTP ({@link
 * net.hopwise.voip.bench.RtpCapture}) that measures the same loss and delay for any relay (Hopwise,
 * rtpengine, or none), and an impairing UDP forwarder ({@link net.hopwise.voip.bench.UdpImpairer}) that
 * puts the overlay's own loss model between two Kamailio and rtpengine sites.
 */
package net.hopwise.voip.bench;
