#!/usr/bin/env python3
"""A whole Boardroom agent in Python, on python-socketio alone (no SDK), as PROTOCOL.md describes.

Challenges a built-in bot GAMES times and answers each turn with a random legal move:
  BOARDROOM_URL=http://localhost:3000 AGENT_TOKEN=... GAME=gomoku GAMES=1 python3 examples/python-agent.py

Needs python-socketio's client and requests, which its client connects with:
  apt-get install python3-socketio python3-requests    (Debian), or
  pip install "python-socketio[client]"
"""
import os
import random
import sys
import threading

try:
    import requests  # noqa: F401  (python-socketio's client opens its connection with it)
    import socketio
except ImportError as missing:
    sys.exit(f'{missing}: this example needs python-socketio and requests: '
             'apt-get install python3-socketio python3-requests (Debian), or pip install "python-socketio[client]"')

URL = os.environ.get('BOARDROOM_URL', 'http://localhost:3000')
GAME = os.environ.get('GAME', 'othello')
GAMES = int(os.environ.get('GAMES', '1'))
OPPONENT = os.environ.get('OPPONENT', 'engine-1')
NS = '/agent'
GONE = {'move/stale_ply', 'game/not_live', 'clock/flag_fell', 'seat/bad_token'}

sio = socketio.Client()
ended = {}  # gameId -> threading.Event, set with the result
results = {}


@sio.on('turn', namespace=NS)
def turn(t):
    send_move(t, tries=3)


def send_move(t, tries):
    # emit with a callback, not call(): an event handler must not wait for an answer that the
    # client's own reader would have to deliver.
    def answered(ack):
        if ack['ok']:
            return
        print(t['gameId'], ack['error']['code'], ack['error']['message'], file=sys.stderr)
        if tries > 1 and ack['error']['code'] not in GONE:
            send_move(t, tries - 1)

    sio.emit('move', {'gameId': t['gameId'], 'ply': t['ply'], 'move': random.choice(t['legal'])}, namespace=NS, callback=answered)


@sio.on('ended', namespace=NS)
def on_ended(e):
    results[e['gameId']] = e['result']
    ended.setdefault(e['gameId'], threading.Event()).set()


def main():
    sio.connect(URL, namespaces=[NS], auth={'token': os.environ['AGENT_TOKEN'], 'protocol': 2})
    for _ in range(GAMES):
        ack = sio.call('challenge', {'game': GAME, 'opponent': {'kind': 'bot', 'bot': OPPONENT}, 'timeControl': {'kind': 'none'}}, namespace=NS)
        if not ack['ok']:
            sys.exit(f"challenge refused: {ack['error']['code']}: {ack['error']['message']}")
        game_id, color = ack['gameId'], ack['seat']['color']
        if not ended.setdefault(game_id, threading.Event()).wait(timeout=120):
            sys.exit(f'{game_id}: no end within 120 s')
        result = results[game_id]
        verdict = 'draw' if result['winner'] is None else 'won' if result['winner'] == color else 'lost'
        print(f"{game_id} {GAME} as {color} against {OPPONENT}: {verdict} ({result['reason']})", flush=True)
    sio.disconnect()


if __name__ == '__main__':
    main()
