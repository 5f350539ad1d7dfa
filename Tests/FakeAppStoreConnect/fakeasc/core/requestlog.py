"""The log of API requests and upload PUTs that `GET /__fake/requests` answers."""


class RequestLog:
    def __init__(self):
        self.entries = []

    def add(self, entry):
        self.entries.append(entry)

    def clear(self):
        self.entries = []
