"""Runtimes that drive the topology: embedded (one process) now, Kafka/faust later."""
