"""The file adapter: match logs as JSON Lines or MessagePack, and the replay tools over them."""
