"""ops's commands: emptying the metrics folder, backing up the embedded database."""
