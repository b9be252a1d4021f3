package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/jsonrpc2"
)

// lenientStream is the header-framed stream with one change: a frame
// whose body is no JSON-RPC message gets the error reply JSON-RPC 2.0
// asks for (a parse error or an invalid request, with a null id) and the
// next frame is read, where the library's own stream would end the
// connection. A broken frame header still ends it: nothing after it can
// be found.
type lenientStream struct {
	jsonrpc2.Stream
	frames frameReader
}

type frameReader interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
}

func newLenientStream(s jsonrpc2.Stream) jsonrpc2.Stream {
	fr, ok := s.(frameReader)
	if !ok {
		return s
	}
	return &lenientStream{Stream: s, frames: fr}
}

func (s *lenientStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, n, err := s.frames.ReadFrame(ctx)
		if err != nil {
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		reply := jsonrpc2.NewError(jsonrpc2.ParseError, "not a JSON-RPC message: "+err.Error())
		var we *jsonrpc2.Error
		if errors.As(err, &we) {
			reply = we
		}
		if _, err := s.Stream.Write(ctx, jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, reply)); err != nil {
			return nil, 0, err
		}
	}
}
