/**
 * End-to-end TCP baselines for the simulator, as the papers' ns-2 experiments used them.
 *
 * <p>{@link net.hopwise.overlay.sim.tcp.TcpSender} and {@link net.hopwise.overlay.sim.tcp.TcpReceiver}
 * are sans-IO machines (inputs with the time, outputs into an interface, a next deadline) that count
 * windows in segments and carry one message per segment, like ns-2's agents, whose defaults they take
 * ({@link net.hopwise.overlay.sim.tcp.TcpConfig}). Tahoe, Reno, NewReno and SACK share slow start and
 * congestion avoidance and differ only in loss recovery ({@link net.hopwise.overlay.sim.tcp.TcpVariant}).
 * {@link net.hopwise.overlay.sim.tcp.TcpFlow} wires a pair into a simulated network: its segments route
 * themselves over given links, through the same queues and loss models as overlay traffic, without
 * passing through overlay nodes, as the papers' kernel TCP did. The variants are validated against
 * {@link net.hopwise.overlay.sim.tcp.PadhyeModel} on one lossy link ({@code PadhyeValidationTest}).
 * These agents are simulator-only: nothing in a live node uses them.
 */
package net.hopwise.overlay.sim.tcp;
