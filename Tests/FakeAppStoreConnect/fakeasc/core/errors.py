"""App Store Connect error documents: `{"errors": [{"id", "status", "code", "title", "detail", "source"}]}`."""

import uuid


class ApiError(Exception):
    """Raised anywhere while answering an API request; the dispatcher turns it into an error document."""

    def __init__(self, status, code, title, detail=None, pointer=None, parameter=None, errors=None, headers=None):
        super().__init__(detail or title)
        self.status, self.code, self.title, self.detail = status, code, title, detail
        self.pointer, self.parameter, self.errors, self.headers = pointer, parameter, errors, headers or {}

    def document(self):
        if self.errors is not None:
            return {"errors": self.errors}
        return {"errors": [error_object(self.status, self.code, self.title, self.detail, self.pointer, self.parameter)]}


def error_object(status, code, title, detail=None, pointer=None, parameter=None):
    e = {"id": str(uuid.uuid4()), "status": str(status), "code": code, "title": title}
    if detail:
        e["detail"] = detail
    if pointer is not None:
        e["source"] = {"pointer": pointer}
    elif parameter is not None:
        e["source"] = {"parameter": parameter}
    return e


def entity_error(code, detail, pointer=None, status=409):
    return ApiError(status, code, "The request entity is invalid or conflicts with existing data.", detail, pointer)


def not_found(detail, pointer=None):
    return ApiError(404, "NOT_FOUND", "The specified resource does not exist", detail, pointer)


def state_error(detail, pointer=None):
    return ApiError(409, "STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                    detail, pointer)


def parameter_error(detail, parameter):
    return ApiError(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value", detail, parameter=parameter)
