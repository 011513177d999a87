"""The EventLog seam: one interface, backends chosen by URL (see factory.open_event_log)."""
